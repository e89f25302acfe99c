// `resinctl db ...`: the SQL store (numbered migrations, queries, export, reset).

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  db: group("SQL store", {
    apply: notImplemented("db apply", "apply"),
    migrate: notImplemented("db migrate", "migrate"),
    list: notImplemented("db list", "list"),
    query: notImplemented("db query", "query"),
    export: notImplemented("db export", "export"),
    reset: notImplemented("db reset", "reset"),
  }),
};
