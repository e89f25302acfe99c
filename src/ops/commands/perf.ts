// `resinctl perf fastpath ...`: latency probes of the edge worker's hops (GET /health, GET
// /scripts, POST /run of a 10-bar script), p50/p95/p99 per hop. `run` keeps its probes in the SQL
// store (perf_probes) for `report`; `tail` prints probes as they happen for --duration seconds.

import { randomUUID } from "node:crypto";
import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { usageError } from "../errors.js";
import { follow } from "../interaction.js";
import { table } from "../output.js";
import { applyPending, type D1Like, DB_BINDING, ensureMigrations } from "../sql.js";
import { callWorker, syntheticBars } from "../worker-client.js";

const SCRIPT = '//@version=6\nindicator("probe")\nplot(close)\n';
const HOPS: [string, (ctx: Ctx) => Promise<unknown>][] = [
  ["health", (ctx) => callWorker(ctx, "GET", "/health")],
  ["scripts", (ctx) => callWorker(ctx, "GET", "/scripts")],
  ["run", (ctx) => callWorker(ctx, "POST", "/run", { script: SCRIPT, data: syntheticBars(10) })],
];

interface Probe {
  probe: number;
  hop: string;
  ms: number;
}

async function probeOnce(ctx: Ctx, i: number): Promise<Probe[]> {
  const out: Probe[] = [];
  for (const [hop, call] of HOPS) {
    const t0 = performance.now();
    await call(ctx);
    out.push({ probe: i, hop, ms: Math.round((performance.now() - t0) * 1000) / 1000 });
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number) : 0;
}

function summarise(
  probes: { hop: string; ms: number }[],
): { hop: string; n: number; p50: number; p95: number; p99: number }[] {
  return HOPS.map(([hop]) => {
    const ms = probes
      .filter((p) => p.hop === hop)
      .map((p) => p.ms)
      .sort((a, b) => a - b);
    return { hop, n: ms.length, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), p99: quantile(ms, 0.99) };
  }).filter((r) => r.n > 0);
}

const render = (ctx: Ctx, rows: ReturnType<typeof summarise>) =>
  table(
    ctx.out,
    ["hop", "probes", "p50 ms", "p95 ms", "p99 ms"],
    rows.map((r) => [r.hop, r.n, r.p50.toFixed(2), r.p95.toFixed(2), r.p99.toFixed(2)]),
  );

async function withDb<T>(ctx: Ctx, fn: (db: D1Like) => Promise<T>): Promise<T> {
  ensureMigrations(ctx.root());
  return ctx.local().withStores(async (mf) => {
    const db = (await mf.getD1Database(DB_BINDING)) as unknown as D1Like;
    await applyPending(db, ctx.root());
    return fn(db);
  });
}

async function run(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const n = (opts.n as number | undefined) ?? 20;
  if (n < 1 || n > 10_000) throw usageError("--n must be 1-10000");
  const probes: Probe[] = [];
  for (let i = 0; i < n; i++) probes.push(...(await probeOnce(ctx, i)));
  const runId = randomUUID();
  const at = new Date().toISOString();
  await withDb(ctx, (db) =>
    db.batch(
      probes.map((p) =>
        (
          db.prepare("INSERT INTO perf_probes (run_id, at, probe, hop, ms) VALUES (?, ?, ?, ?, ?)") as {
            bind(...v: unknown[]): unknown;
          }
        ).bind(runId, at, p.probe, p.hop, p.ms),
      ),
    ),
  );
  const rows = summarise(probes);
  return {
    data: { run_id: runId, at, n, hops: rows },
    text: `${render(ctx, rows)}\nrun ${runId} kept (resinctl perf fastpath report)`,
    next: "resinctl perf fastpath report",
  };
}

async function tail(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const probes: Probe[] = [];
  let i = 0;
  let busy = false;
  const signal = await follow(
    async () => {
      if (busy) return;
      busy = true;
      try {
        const got = await probeOnce(ctx, i++);
        probes.push(...got);
        ctx.out.write(
          ctx.flags.json
            ? `${JSON.stringify({ event: "probe", probes: got })}\n`
            : `${got.map((p) => `${p.hop} ${p.ms.toFixed(2)}ms`).join("  ")}\n`,
        );
      } finally {
        busy = false;
      }
    },
    (opts.duration as number | undefined) ?? 10,
    500,
  );
  const rows = summarise(probes);
  return { data: { probes: probes.length, hops: rows, signal }, text: render(ctx, rows) };
}

async function report(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const from = opts.from ? String(opts.from) : "1970-01-01T00:00:00.000Z";
  if (Number.isNaN(Date.parse(from))) throw usageError(`--from must be an ISO time (got '${from}')`);
  const rows = await withDb(
    ctx,
    async (db) =>
      (
        await (
          db.prepare("SELECT run_id, at, hop, ms FROM perf_probes WHERE at >= ? ORDER BY at") as unknown as {
            bind(...v: unknown[]): {
              all(): Promise<{ results: { run_id: string; at: string; hop: string; ms: number }[] }>;
            };
          }
        )
          .bind(new Date(from).toISOString())
          .all()
      ).results,
  );
  const runs = [...new Set(rows.map((r) => r.run_id))];
  const hops = summarise(rows);
  return {
    data: { from, runs: runs.length, probes: rows.length, hops },
    text: rows.length
      ? `${runs.length} runs since ${from}\n${render(ctx, hops)}`
      : `no probes since ${from} (resinctl perf fastpath run)`,
  };
}

export const commands: Record<string, Cmd> = {
  perf: group("latency probes", {
    fastpath: group("the edge worker's hops", {
      run: leaf("N probes of every hop, p50/p95/p99, kept for report", run, {
        options: [["--n <N>", "probes (default 20)", "int"]],
      }),
      tail: leaf("probe continuously and print each", tail, {
        options: [["--duration <S>", "seconds (default 10)", "int"]],
      }),
      report: leaf("p50/p95/p99 per hop over the kept runs", report, {
        options: [["--from <ISO>", "only runs since"]],
      }),
    }),
  }),
};
