// `resinctl repair ...`: find and fix what is broken in a workspace.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  repair: group("repairs", {
    check: notImplemented("repair check", "check"),
    worker: notImplemented("repair worker", "worker"),
    infra: notImplemented("repair infra", "infra"),
    secrets: notImplemented("repair secrets", "secrets"),
    kv: notImplemented("repair kv", "kv"),
    db: notImplemented("repair db", "db"),
    rebuild: notImplemented("repair rebuild", "rebuild"),
  }),
};
