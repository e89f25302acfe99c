// `resinctl trace ...`: structured events the workers emit, metrics and export destinations.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  trace: group("tracing", {
    events: notImplemented("trace events", "events"),
    metrics: notImplemented("trace metrics", "metrics"),
    live: notImplemented("trace live", "live"),
    keys: notImplemented("trace keys", "keys"),
    values: notImplemented("trace values", "values"),
    destinations: notImplemented("trace destinations", "destinations"),
    usage: notImplemented("trace usage", "usage"),
  }),
};
