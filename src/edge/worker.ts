// The workerd entry (Cloudflare Worker): kernels.wasm arrives as a compiled WebAssembly.Module
// (module import, bundled by src/ops/edge-build.ts), the deploy's ahead-of-time compiled scripts
// are installed (workerd forbids `new Function`: src/compile/aot.ts), then every request goes to
// the edge app and every cron trigger runs the bar-close jobs.

// @ts-expect-error -- resolved by the edge bundler to the CompiledWasm module "./kernels.wasm".
import kernels from "resin:kernels.wasm";
// @ts-expect-error -- resolved by the edge bundler to the deploy's compiled scripts (src/ops/edge-aot.ts).
import compiledScripts from "resin:compiled-scripts";
import { type CompiledModule, installCompiled } from "../compile/aot.js";
import { setKernelModule } from "../kernels/index.js";
import { createInProcessEngine } from "../server/engine.js";
import { edgeApp, runJobs } from "./app.js";
import type { EdgeEnv, ExecutionContextLike } from "./bindings.js";

// workerd finds Durable Object classes among the entry module's exports.
export { StudyCoordinator } from "./study-coordinator.js";

setKernelModule(kernels as WebAssembly.Module);
installCompiled(compiledScripts as CompiledModule[]);
const engine = createInProcessEngine();

export default {
  async fetch(request: Request, env: EdgeEnv, ctx: ExecutionContextLike): Promise<Response> {
    const started = Date.now();
    const res = await edgeApp(env, engine).fetch(request, env, ctx as never);
    // One structured line per request: resinctl captures the console per worker (logs, trace, analytics).
    console.log(
      JSON.stringify({
        trace: "request",
        method: request.method,
        path: new URL(request.url).pathname,
        status: res.status,
        ms: Date.now() - started,
      }),
    );
    return res;
  },
  scheduled(_event: unknown, env: EdgeEnv, ctx: ExecutionContextLike): void {
    ctx.waitUntil(runJobs(env, engine));
  },
};
