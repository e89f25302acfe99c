// `resinctl perf ...`: latency probes.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  perf: group("latency probes", {
    fastpath: notImplemented("perf fastpath", "fast-path probes"),
  }),
};
