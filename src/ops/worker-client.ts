// The edge worker's HTTP API as resinctl calls it: where the worker is (SVC_WORKER_URL, the
// config's url, the running local dev server, else its configured port) and one request helper
// that adds the API key from the secrets and turns HTTP errors into coded CtlErrors; plus the bar
// inputs (--data files, synthetic bars) the script commands share.

import { readFileSync } from "node:fs";
import type { Ctx, Inv } from "./context.js";
import { CtlError, EXIT, usageError } from "./errors.js";
export const WORKER = "resin";

export function workerUrl(ctx: Ctx, worker = WORKER): string {
  const env = ctx.env.SVC_WORKER_URL;
  if (env) return env.endsWith("/") ? env : `${env}/`;
  const cfg = ctx.config().workers[worker];
  if (cfg?.url) return cfg.url.endsWith("/") ? cfg.url : `${cfg.url}/`;
  return ctx.local().runningUrl(worker) ?? `http://127.0.0.1:${cfg?.port ?? 8788}/`;
}

/** Another worker of the workspace (the trade service): its config url, running dev server or port. */
function serviceUrl(ctx: Ctx, worker: string): string {
  const cfg = ctx.config().workers[worker];
  if (cfg?.url) return cfg.url.endsWith("/") ? cfg.url : `${cfg.url}/`;
  return ctx.local().runningUrl(worker) ?? `http://127.0.0.1:${cfg?.port ?? 8789}/`;
}

export async function callWorker(
  ctx: Ctx,
  method: string,
  path: string,
  body?: unknown,
  target: { worker: string; headers: Record<string, string> } = { worker: WORKER, headers: {} },
): Promise<{ status: number; json: Record<string, unknown> }> {
  const base = target.worker === WORKER ? workerUrl(ctx) : serviceUrl(ctx, target.worker);
  const headers: Record<string, string> = { "content-type": "application/json", ...target.headers };
  let key: string | null = null;
  try {
    key = target.worker === WORKER ? ctx.secrets().get(WORKER, "API_KEY") : null;
  } catch {
    key = null;
  }
  if (key) headers["x-api-key"] = key;
  let res: Response;
  try {
    res = await ctx.fetch(new URL(path.replace(/^\//, ""), base), {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (e) {
    throw new CtlError(
      "WORKER_UNREACHABLE",
      `cannot reach worker '${target.worker}' at ${base}: ${(e as Error).message}`,
      {
        exit: EXIT.INFRA,
        hint: `start it with \`resinctl dev start\` (local provider) or set workers.${target.worker}.url`,
        suggestions: ["resinctl dev start", "resinctl workers list"],
      },
    );
  }
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { raw: text };
  }
  if (res.status >= 400) {
    throw new CtlError(String(json.code ?? `HTTP_${res.status}`), String(json.message ?? `HTTP ${res.status}`), {
      exit: res.status >= 500 ? EXIT.INFRA : EXIT.FAILED,
      ...(res.status === 401 ? { hint: "set the key with `resinctl secrets set resin API_KEY`" } : {}),
    });
  }
  return { status: res.status, json };
}

export function readInputFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw usageError(`cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export function syntheticBars(n: number): Record<string, number>[] {
  const out = [];
  let open = 100;
  for (let i = 0; i < n; i++) {
    const close = i % 3 === 2 ? open - 0.5 : open + 1;
    out.push({
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.8,
      close,
      volume: 1000 + i,
    });
    open = close;
  }
  return out;
}

export function barsFrom(ctx: Ctx, opts: Inv["opts"]): unknown[] {
  if (!opts.data) return syntheticBars((opts.bars as number | undefined) ?? 20);
  const text = readInputFile(ctx.resolvePath(String(opts.data)), "data file");
  try {
    const doc = JSON.parse(text) as unknown;
    const bars = Array.isArray(doc) ? doc : (doc as { bars?: unknown[] }).bars;
    if (!Array.isArray(bars)) throw new Error("expected an array of bars");
    return bars;
  } catch (e) {
    throw usageError(`--data must be a JSON array of bars: ${(e as Error).message}`);
  }
}
