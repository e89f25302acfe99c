// `resinctl logs ...`: the workers' captured console output.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  logs: group("logs", {
    worker: notImplemented("logs worker", "a worker's logs"),
    all: notImplemented("logs all", "all logs"),
  }),
};
