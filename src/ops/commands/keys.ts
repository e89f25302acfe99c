// `resinctl keys ...`: the internal auth keys the workers share (stored as secrets of "_internal").

import { randomBytes } from "node:crypto";
import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx } from "../context.js";
import { table } from "../output.js";
import { mask } from "../secrets.js";

export async function keysGenerate(ctx: Ctx): Promise<CmdResult> {
  const store = ctx.secrets();
  const n = store.list("_internal").filter((s) => s.name.startsWith("INTERNAL_KEY")).length;
  const name = n === 0 ? "INTERNAL_KEY_BINDING" : `INTERNAL_KEY_BINDING_${n + 1}`;
  const value = randomBytes(24).toString("base64url");
  store.set("_internal", name, value);
  return { data: { name }, text: `generated ${name} (${mask(value)})` };
}

export async function keysList(ctx: Ctx): Promise<CmdResult> {
  const store = ctx.secrets();
  const keys = store
    .list("_internal")
    .map((s) => ({ name: s.name, preview: mask(store.get("_internal", s.name) ?? "") }));
  return {
    data: { keys: keys.map((k) => k.name) },
    text: keys.length
      ? table(
          ctx.out,
          ["key", "value"],
          keys.map((k) => [k.name, k.preview]),
        )
      : "no internal keys (resinctl keys generate)",
  };
}

export const commands: Record<string, Cmd> = {
  keys: group("internal auth keys", {
    generate: leaf("generate an internal key", keysGenerate),
    list: leaf("list internal keys", keysList),
  }),
};
