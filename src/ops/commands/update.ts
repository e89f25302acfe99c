// `resinctl update`: self-update from the npm registry.

import { notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  update: notImplemented("update", "self-update"),
};
