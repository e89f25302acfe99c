// `resinctl secrets ...`: worker secrets, encrypted at rest (secrets.ts), never printed in full;
// with the cloudflare provider also pushed to the deployed worker.

import { group, leaf, type Cmd } from "../command.js";
import { declaredVars, devVarsFile, isPlaceholder, isSystemSecret, readDevVars } from "../devvars.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { table } from "../output.js";
import { mask, SECRET_NAME_RE } from "../secrets.js";

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

interface SyncRow {
  worker: string;
  name: string;
  status: "synced" | "skipped" | "failed";
  detail: string;
}

export async function secretsSync(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  if (opts.system && opts.required) throw usageError("--system and --required exclude each other");
  const cfg = ctx.config();
  const workers = args[0] ? [args[0]] : Object.keys(cfg.workers);
  for (const w of workers) if (!Object.hasOwn(cfg.workers, w)) throw usageError(`no worker named '${w}' in the config`);
  const store = ctx.secrets();
  const cloud = ctx.providerName() === "cloudflare";
  const rows: SyncRow[] = [];
  const put = async (worker: string, name: string, value: string): Promise<void> => {
    try {
      if (cloud) await ctx.cloudflare().putSecret(worker, name, value);
      store.set(worker, name, value);
      rows.push({ worker, name, status: "synced", detail: cloud ? "stored and pushed" : "stored" });
    } catch (e) {
      rows.push({ worker, name, status: "failed", detail: (e as Error).message });
    }
  };
  for (const w of workers) {
    if (opts.system) {
      const mesh = Object.entries(store.all("_internal")).filter(([k]) => isSystemSecret(k));
      if (!mesh.length)
        rows.push({
          worker: w,
          name: "INTERNAL_KEY_BINDING",
          status: "skipped",
          detail: "no mesh secrets yet (resinctl keys generate)",
        });
      for (const [k, v] of mesh) await put(w, k, v);
      continue;
    }
    const vars = readDevVars(ctx.root(), w);
    const wanted = opts.required
      ? declaredVars(w)
          .filter((d) => d.required)
          .map((d) => d.name)
      : [...(vars?.keys() ?? [])];
    for (const name of wanted) {
      const v = vars?.get(name);
      if (v === undefined)
        rows.push({ worker: w, name, status: "failed", detail: `not in ${devVarsFile(ctx.root(), w)}` });
      else if (isPlaceholder(v)) rows.push({ worker: w, name, status: "skipped", detail: "placeholder" });
      else if (!SECRET_NAME_RE.test(name))
        rows.push({ worker: w, name, status: "failed", detail: "not an UPPER_SNAKE_CASE name" });
      else await put(w, name, v);
    }
  }
  const count = (s: SyncRow["status"]) => rows.filter((r) => r.status === s).length;
  return {
    data: { synced: count("synced"), skipped: count("skipped"), failed: count("failed"), rows },
    text: `${
      rows.length
        ? table(
            ctx.out,
            ["worker", "secret", "status", "detail"],
            rows.map((r) => [r.worker, r.name, r.status, r.detail]),
          )
        : "nothing to sync"
    }\nsynced ${count("synced")}, skipped ${count("skipped")}, failed ${count("failed")}`,
    ...(count("failed") ? { exit: EXIT.FAILED } : {}),
  };
}

export const commands: Record<string, Cmd> = {
  secrets: group("worker secrets (encrypted at rest)", {
    list: leaf("list secrets (values masked)", secretsList, { args: "[worker]" }),
    set: leaf("set a secret (value piped on stdin, or a masked prompt)", secretsSet, {
      args: "<worker> <NAME>",
      examples: ['printf %s "$KEY" | resinctl secrets set resin API_KEY'],
    }),
    delete: leaf("delete a secret", secretsDelete, { args: "<worker> <NAME>" }),
    sync: leaf(
      "sync secrets: the dev-vars files into the store (and the provider); --system: mesh secrets to every worker",
      secretsSync,
      {
        args: "[worker]",
        options: [
          ["--system", "only the mesh secrets (INTERNAL_KEY_BINDING, WEBHOOK_*), from _internal to every worker"],
          ["--required", "only the variables the workers require"],
        ],
      },
    ),
  }),
};
