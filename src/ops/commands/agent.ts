// `resinctl agent ...`: the agent worker.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  agent: group("agent worker", {
    health: notImplemented("agent health", "agent health"),
  }),
};
