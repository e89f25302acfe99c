// `resinctl infra ...`: the stores the workers bind (SQL, KV, object, queues, vectors, analytics).

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  infra: group("provision stores", {
    provision: notImplemented("infra provision", "create every store"),
    sqlstore: notImplemented("infra sqlstore", "SQL stores"),
    kvstore: notImplemented("infra kvstore", "KV stores"),
    objstore: notImplemented("infra objstore", "object stores"),
    queues: notImplemented("infra queues", "queues"),
    vectorize: notImplemented("infra vectorize", "vector indexes"),
    analytics: notImplemented("infra analytics", "analytics datasets"),
  }),
};
