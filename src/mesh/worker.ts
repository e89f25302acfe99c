// The workerd entry of the trade service: the HTTP app per request, and the MeshControl Durable
// Object class (workerd finds Durable Object classes among the entry module's exports).

import type { MeshEnv } from "./bindings.js";
import { meshApp } from "./app.js";

export { MeshControl } from "./control.js";

const apps = new WeakMap<object, ReturnType<typeof meshApp>>();

export default {
  fetch(request: Request, env: MeshEnv): Promise<Response> | Response {
    let app = apps.get(env);
    if (!app) apps.set(env, (app = meshApp(env)));
    return app.fetch(request, env);
  },
};
