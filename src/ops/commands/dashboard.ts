// `resinctl dashboard ...`: the web dashboard.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  dashboard: group("dashboard", {
    dev: notImplemented("dashboard dev", "dev"),
    deploy: notImplemented("dashboard deploy", "deploy"),
  }),
};
