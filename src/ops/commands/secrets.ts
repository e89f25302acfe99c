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

/** The secret's value: piped on stdin, or asked with a masked prompt on a terminal; never from argv. */
async function readValue(ctx: Ctx, worker: string, name: string): Promise<string> {
  const piped = await ctx.session.readStdin();
  let value: string | null = piped === null ? null : piped.replace(/\r?\n$/, "");
  if (value === null && ctx.session.isTTY && ctx.session.prompter && !ctx.flags.json)
    value = await ctx.session.prompter.password(`value of ${worker}/${name}`);
  if (!value)
    throw usageError("no value: pipe it on stdin (never on the command line)", undefined, [
      `printf %s "$VALUE" | resinctl secrets set ${worker} ${name}`,
    ]);
  return value;
}

export async function secretsSet(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const [worker, name] = args as [string, string];
  const store = ctx.secrets();
  store.list(); // a wrong key or damaged store fails before anything is pushed
  const value = await readValue(ctx, worker, name);
  // Transactional with the cloudflare provider: pushed to the deployed worker first, stored only
  // when the push succeeded, so the two never disagree.
  const pushed = ctx.providerName() === "cloudflare" && !worker.startsWith("_");
  if (pushed) await ctx.cloudflare().putSecret(worker, name, value);
  store.set(worker, name, value);
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
    set: leaf("set a secret (value piped on stdin, or a masked prompt)", secretsSet, {
      args: "<worker> <NAME>",
      examples: ['printf %s "$KEY" | resinctl secrets set resin API_KEY'],
    }),
    delete: leaf("delete a secret", secretsDelete, { args: "<worker> <NAME>" }),
    sync: notImplemented("secrets sync", "push secrets to the provider"),
  }),
};
