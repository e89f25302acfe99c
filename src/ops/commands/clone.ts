// `resinctl clone [name]`: worker repositories as git submodules.

import { notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  clone: notImplemented("clone", "add worker repositories as git submodules"),
};
