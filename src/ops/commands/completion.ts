// `resinctl completion <shell>`: the script is generated from the commander program by cli.ts,
// which owns the program; this entry only declares the command.

import { leaf, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  completion: leaf("shell completion script (bash, zsh, fish)", async () => ({}), {
    args: "<shell>",
    noWorkspace: true,
  }),
};
