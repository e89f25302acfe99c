// `resinctl waf`: firewall rules (cloudflare; local: a dry-run report).

import { notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  waf: notImplemented("waf", "firewall rules"),
};
