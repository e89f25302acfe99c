// `resinctl schema ...`: JSON Schemas of the worker configs.

import { group, notImplemented, type Cmd } from "../command.js";

export const commands: Record<string, Cmd> = {
  schema: group("schemas", {
    validate: notImplemented("schema validate", "validate"),
    list: notImplemented("schema list", "list"),
    generate: notImplemented("schema generate", "generate"),
  }),
};
