// `resinctl tui`: the terminal dashboard.

import { notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  tui: notImplemented("tui", "terminal dashboard"),
};
