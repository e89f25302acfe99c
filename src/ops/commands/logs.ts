// `resinctl logs ...`: the workers' captured console output (see logview.ts).

import { group, leaf, type Cmd } from "../command.js";
import { LOG_OPTIONS, showLogs } from "../logview.js";

export const commands: Record<string, Cmd> = {
  logs: group("the workers' captured console output", {
    worker: leaf("a worker's log", async (ctx, { args, opts }) => showLogs(ctx, args[0] as string, opts), {
      args: "<name>",
      options: LOG_OPTIONS,
      examples: ["resinctl logs worker resin --lines 20", "resinctl logs worker resin --follow"],
    }),
    all: leaf("every worker's log, merged by time", async (ctx, { opts }) => showLogs(ctx, null, opts), {
      options: LOG_OPTIONS,
    }),
  }),
};
