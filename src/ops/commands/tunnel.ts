// `resinctl tunnel ...`: tunnels to the local workers.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  tunnel: group("tunnels", {
    check: notImplemented("tunnel check", "detect a tunnel daemon"),
  }),
};
