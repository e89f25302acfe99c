// `resinctl secrets ...`: worker secrets, encrypted at rest (secrets.ts), never printed in full;
// with the cloudflare provider also pushed to the deployed worker.

import { group, leaf, notImplemented, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { table } from "../output.js";
import { mask } from "../secrets.js";

export async function secretsList(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const worker = args[0];
  const store = ctx.secrets();
  const rows = store.list(worker).map((s) => ({ ...s, preview: mask(store.get(s.worker, s.name) ?? "") }));
  return {
    data: { secrets: rows.map(({ worker: w, name }) => ({ worker: w, name })) },
    text: rows.length
      ? table(
          ctx.out,
          ["worker", "name", "value"],
          rows.map((r) => [r.worker, r.name, r.preview]),
        )
      : "no secrets",
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export async function secretsSet(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const [worker, name] = args as [string, string];
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw usageError(`secret names are UPPER_SNAKE_CASE (got '${name}')`);
  const value = (opts.value as string | undefined) ?? (process.stdin.isTTY ? null : await readStdin());
  if (!value) throw usageError("no value: pass --value or pipe it on stdin");
  ctx.secrets().set(worker, name, value);
  // With the cloudflare provider the secret also goes to the deployed worker (value on stdin).
  const pushed = ctx.providerName() === "cloudflare" && worker !== "_internal";
  if (pushed) ctx.cloudflare().putSecret(worker, name, value);
  return {
    data: { worker, name, pushed },
    text: `set ${worker}/${name} (${mask(value)})${pushed ? " and pushed to Cloudflare" : ""}`,
  };
}

export async function secretsDelete(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const [worker, name] = args as [string, string];
  if (!ctx.secrets().delete(worker, name))
    throw new CtlError("NOT_FOUND", `no secret ${worker}/${name}`, { exit: EXIT.FAILED });
  return { data: { worker, name, deleted: true }, text: `deleted ${worker}/${name}` };
}

export const commands: Record<string, Cmd> = {
  secrets: group("worker secrets (encrypted at rest)", {
    list: leaf("list secrets (values masked)", secretsList, { args: "[worker]" }),
    set: leaf("set a secret (value from --value or stdin)", secretsSet, {
      args: "<worker> <NAME>",
      options: [["--value <V>", "the value (else read from stdin)"]],
      examples: ["echo s3cret | resinctl secrets set resin API_KEY"],
    }),
    delete: leaf("delete a secret", secretsDelete, { args: "<worker> <NAME>" }),
    sync: notImplemented("secrets sync", "push secrets to the provider"),
  }),
};
