// `resinctl schema ...`: JSON Schemas of the deployment config and of each worker's entry,
// generated from what config.ts accepts, and validation of resinctl.toml against them (ajv).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { group, leaf, type Cmd } from "../command.js";
import { configPath, PRESETS, TRANSPORTS, WORKER_KINDS, WORKER_NAME_RE } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { table } from "../output.js";

export function workerSchema(worker: string, kind?: string): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: `resinctl://schema/worker/${worker}`,
    title: `worker ${worker}`,
    type: "object",
    additionalProperties: false,
    required: ["kind"],
    properties: {
      kind: { enum: [...WORKER_KINDS], ...(kind ? { default: kind } : {}) },
      script: {
        type: "string",
        minLength: 1,
        description: "prebuilt ES module (kind script), relative to the workspace",
      },
      port: { type: "integer", minimum: 0, maximum: 65535 },
      compatibility_date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
      url: { type: "string", pattern: "^https?://" },
      services: {
        type: "object",
        propertyNames: { pattern: "^[A-Z][A-Z0-9_]*$" },
        additionalProperties: { type: "string", pattern: WORKER_NAME_RE.source },
      },
    },
    if: { properties: { kind: { const: "script" } } },
    then: { required: ["kind", "script"] },
  };
}

export function configSchema(workers: string[]): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "resinctl://schema/config",
    title: "resinctl.toml",
    type: "object",
    additionalProperties: false,
    properties: {
      provider: { enum: ["local", "cloudflare"] },
      account_id: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
      preset: { enum: [...PRESETS] },
      transport: { enum: [...TRANSPORTS] },
      crons: { type: "array", items: { type: "string", minLength: 9 } },
      workers: {
        type: "object",
        propertyNames: { pattern: WORKER_NAME_RE.source },
        additionalProperties: { $ref: "#/definitions/worker" },
      },
    },
    definitions: { worker: workerSchema("*") },
    "x-workers": workers,
  };
}

function rawConfig(ctx: Ctx): Record<string, unknown> {
  const file = configPath(ctx.root());
  if (!existsSync(file))
    throw new CtlError("NO_CONFIG", `${file} does not exist`, { exit: EXIT.FAILED, suggestions: ["resinctl init"] });
  try {
    return parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (e) {
    throw new CtlError("CONFIG_INVALID", `${file}: ${(e as Error).message}`, { exit: EXIT.FAILED });
  }
}

async function validate(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const { Ajv } = await import("ajv");
  const ajv = new Ajv({ allErrors: true, strict: false });
  const doc = rawConfig(ctx);
  const workers = (doc.workers ?? {}) as Record<string, unknown>;
  const which = args[0];
  if (which && !Object.hasOwn(workers, which))
    throw new CtlError("UNKNOWN_WORKER", `no worker named '${which}' in the config`, { exit: EXIT.USAGE });
  const problems: { where: string; problem: string }[] = [];
  const check = (schema: Record<string, unknown>, value: unknown, where: string) => {
    const ok = ajv.validate(schema, value);
    if (!ok)
      for (const e of ajv.errors ?? [])
        problems.push({
          where: `${where}${e.instancePath.replace(/\//g, ".")}`,
          problem: `${e.message ?? "invalid"}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
        });
  };
  if (which) check(workerSchema(which), workers[which], `workers.${which}`);
  else check(configSchema(Object.keys(workers)), doc, "config");
  return {
    data: { valid: problems.length === 0, problems, checked: which ? `workers.${which}` : "config" },
    text: problems.length
      ? table(
          ctx.out,
          ["where", "problem"],
          problems.map((p) => [p.where, p.problem]),
        )
      : `${which ? `workers.${which}` : "resinctl.toml"} is valid`,
    ...(problems.length ? { exit: EXIT.FAILED } : {}),
  };
}

async function list(ctx: Ctx): Promise<CmdResult> {
  const workers = Object.keys((rawConfig(ctx).workers ?? {}) as object);
  const rows = [
    { schema: "config", id: "resinctl://schema/config" },
    ...workers.map((w) => ({ schema: `worker ${w}`, id: `resinctl://schema/worker/${w}` })),
  ];
  return {
    data: { schemas: rows },
    text: table(
      ctx.out,
      ["schema", "id"],
      rows.map((r) => [r.schema, r.id]),
    ),
  };
}

async function generate(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const worker = args[0] as string;
  const doc = rawConfig(ctx);
  const w = ((doc.workers ?? {}) as Record<string, { kind?: string }>)[worker];
  if (!w || !Object.hasOwn(doc.workers as object, worker))
    throw new CtlError("UNKNOWN_WORKER", `no worker named '${worker}' in the config`, { exit: EXIT.USAGE });
  const schema = workerSchema(worker, w.kind);
  let file: string | null = null;
  if (opts.write) {
    const dir = join(ctx.root(), "schemas");
    mkdirSync(dir, { recursive: true });
    file = join(dir, `${worker}.schema.json`);
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  }
  return {
    data: { worker, schema, ...(file ? { file } : {}) },
    text: file ? `wrote ${file}` : JSON.stringify(schema, null, 2),
  };
}

export const commands: Record<string, Cmd> = {
  schema: group("JSON Schemas of the config and its workers", {
    validate: leaf("check resinctl.toml (or one worker's entry) against its schema", validate, { args: "[worker]" }),
    list: leaf("the schemas there are", list),
    generate: leaf("a worker's JSON Schema", generate, {
      args: "<worker>",
      options: [["--write", "write schemas/<worker>.schema.json"]],
    }),
  }),
};
