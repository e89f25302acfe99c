// resin optimize <script> [--trials N] [--sampler s] [--objective o] [--space json] [--validation m]
//   [--bars N] [--train-bars N] [--test-bars N] [--step-bars N] [--holdout-frac f] [--seed n]
//   [--data f] [--min-trades n] [--json]
// Searches a strategy's inputs with the shared optimize module (service.md 3 and 5). The space
// defaults to the strategy's int/float inputs that declare minval and maxval. Trials run on worker
// threads when the built worker entry exists (dist/), else in-process.
// Exit codes: 0 ok, 1 script or run error, 2 usage error.

import { UsageError, readText } from "./args.js";
import type { Bar, OhlcvInput } from "../core/result.js";
import { isBarDataError, parseCsvBars, parseJsonBars } from "../core/bars.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import { OptimizeError, prepareStudy, runStudy, spaceFromInputs, toBarArray, type OptimizeRequest, type OptimizeResult, type TrialRecord } from "../optimize/index.js";
import { createNodeEngine } from "../server/node/pool.js";
import { TRIAL_BROKER } from "../server/engine.js";

const USAGE = `Usage: resin optimize <strategy.pine> [options]

Options:
  --trials N          trials to run (default 30, at most 200)
  --sampler S         auto | random | tpe | grid (default auto: random below 20 trials, else tpe)
  --objective O       composite | net_pnl | profit_factor | calmar (default composite)
  --space JSON        {"params":[{"name":"Length","kind":"int","min":5,"max":50,"step":5}, ...]}
                      (default: the strategy's int/float inputs with minval and maxval)
  --validation M      holdout | walk-forward | in-sample (default holdout)
  --bars N            seeded random-walk bars when no --data is given (default 500)
  --train-bars N      walk-forward train window (default max(8, 2*bars/3))
  --test-bars N       walk-forward test window (default max(4, bars/6))
  --step-bars N       walk-forward step (default: test bars)
  --holdout-frac F    holdout test fraction (default 0.3, clamped to 0.05..0.8)
  --min-trades N      fewer closed trades score -inf (default 5)
  --seed N            makes the search reproducible
  --data FILE         bars from a CSV or JSON file
  --json              print the full result as JSON on stdout
  -h, --help          this help

Examples:
  resin optimize strategy.pine --trials 50 --seed 1
  resin optimize strategy.pine --validation walk-forward --bars 1000 --sampler tpe --json`;


interface Args {
  script?: string;
  trials?: number;
  sampler?: string;
  objective?: string;
  space?: unknown;
  validation: string;
  bars: number;
  trainBars?: number;
  testBars?: number;
  stepBars?: number;
  holdoutFrac?: number;
  minTrades?: number;
  seed?: number;
  data?: string;
  json: boolean;
  help: boolean;
}

const INT_FLAGS: Record<string, keyof Args> = {
  "--trials": "trials", "--bars": "bars", "--train-bars": "trainBars", "--test-bars": "testBars",
  "--step-bars": "stepBars", "--min-trades": "minTrades", "--seed": "seed",
};
const STRING_FLAGS: Record<string, keyof Args> = { "--sampler": "sampler", "--objective": "objective", "--validation": "validation", "--data": "data" };

export function parseArgs(argv: string[]): Args {
  const a: Args = { validation: "holdout", bars: 500, json: false, help: false };
  const rec = a as unknown as Record<string, unknown>;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i] as string;
    let value: string | undefined;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const needValue = (): string => {
      if (value !== undefined) return value;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--json") a.json = true;
    else if (arg === "-h" || arg === "--help") a.help = true;
    else if (arg in INT_FLAGS) {
      const v = needValue();
      const n = Number(v);
      if (!/^-?\d+$/.test(v) || (arg !== "--seed" && n < 0)) throw new UsageError(`${arg} must be ${arg === "--seed" ? "an" : "a non-negative"} integer, got '${v}'`);
      if (arg === "--trials" && n < 1) throw new UsageError("--trials must be at least 1");
      rec[INT_FLAGS[arg] as string] = n;
    } else if (arg in STRING_FLAGS) rec[STRING_FLAGS[arg] as string] = needValue();
    else if (arg === "--holdout-frac") {
      const v = needValue();
      const f = Number(v);
      if (!Number.isFinite(f) || f <= 0 || f >= 1) throw new UsageError(`--holdout-frac must be a number between 0 and 1, got '${v}'`);
      a.holdoutFrac = f;
    } else if (arg === "--space") {
      const v = needValue();
      try {
        const parsed = JSON.parse(v) as unknown;
        a.space = Array.isArray(parsed) ? { params: parsed } : parsed;
      } catch {
        throw new UsageError(`--space must be JSON ({"params": [...]}), got '${v}'`);
      }
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option '${arg}'`);
    else if (a.script === undefined) a.script = arg;
    else throw new UsageError(`unexpected argument '${arg}'`);
  }
  return a;
}

function loadBars(a: Args): Bar[] | string {
  if (!a.data) return randomWalkBars(a.bars);
  const text = readText(a.data, "data file");
  const parsed = /\.json$/i.test(a.data) || /^\s*[[{]/.test(text) ? parseJsonBars(text) : parseCsvBars(text);
  if (isBarDataError(parsed)) return `${a.data}: ${parsed.error}${parsed.line ? ` (line ${parsed.line})` : ""}`;
  return toBarArray(parsed as unknown as OhlcvInput);
}

/** The validation object for the request: walk-forward windows derive from the bar count. */
function validationOf(a: Args, n: number): Record<string, unknown> {
  const v: Record<string, unknown> = { mode: a.validation };
  if (a.holdoutFrac !== undefined) v.holdout_frac = a.holdoutFrac;
  if (a.validation === "walk-forward") {
    v.train_bars = a.trainBars ?? Math.max(8, Math.floor((2 * n) / 3));
    v.test_bars = a.testBars ?? Math.max(4, Math.floor(n / 6));
    v.step_bars = a.stepBars ?? v.test_bars;
  }
  return v;
}

function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "-";
  return String(Number(x.toPrecision(digits + 2)));
}

function progressBar(done: number, total: number, best: string): string {
  const width = 24;
  const filled = Math.round((done / total) * width);
  return `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} best ${best}`;
}

function printTable(res: OptimizeResult): void {
  const ranked = res.trials.filter((t) => !t.error).sort((a, b) => (b.oos_score ?? -Infinity) - (a.oos_score ?? -Infinity) || (b.is_score ?? -Infinity) - (a.is_score ?? -Infinity));
  const rows = ranked.slice(0, 10).map((t: TrialRecord) => [String(t.index), JSON.stringify(t.params), fmt(t.is_score), fmt(t.oos_score), String(t.is_stats?.trades ?? "-"), fmt(t.is_stats?.total_pnl)]);
  const head = ["#", "params", "is_score", "oos_score", "trades", "is_pnl"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => r.map((c, i) => (i === 1 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  const errors = res.trials.filter((t) => t.error).length;
  console.log("");
  console.log(`sampler ${res.sampler}, objective ${res.objective}, validation ${res.validation.mode}, ${res.n_trials} trials (${errors} failed), ${res.engine_runs} engine runs, ${res.ms} ms`);
  if (res.best_params) console.log(`best #${res.best_index}: ${JSON.stringify(res.best_params)}  is ${fmt(res.best_is_score)}  oos ${fmt(res.best_oos_score)}`);
  else console.log("best: none (no trial reached min_trades with a finite score)");
  if (res.warning) console.log(`warning: ${res.warning}`);
}

const USAGE_CODES = new Set(["INVALID_SPACE", "INVALID_VALIDATION", "INVALID_OBJECTIVE", "INVALID_SAMPLER", "GRID_TOO_LARGE", "TOO_MANY_RUNS"]);

export async function command(argv: string[]): Promise<number> {
  let a: Args;
  try {
    a = parseArgs(argv);
    if (a.help) {
      console.log(USAGE);
      return 0;
    }
    if (!a.script) throw new UsageError("missing the strategy file");
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`resin optimize: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  const engine = createNodeEngine();
  try {
    const source = readText(a.script, "script");
    const bars = loadBars(a);
    if (typeof bars === "string") {
      console.error(`resin optimize: ${bars}`);
      return 1;
    }
    let space = a.space;
    if (space === undefined) {
      const probe = await engine.run({ script: source, data: bars, symbol: "CHART", options: { mode: "interpret" } });
      if (probe.error && !probe.timed_out) {
        console.error(`resin optimize: ${a.script}: ${probe.error_kind ?? "error"} error: ${probe.error}`);
        return 1;
      }
      const params = spaceFromInputs(probe.inputs ?? []);
      if (params.length === 0) throw new UsageError("the strategy has no int/float inputs with minval and maxval; pass --space");
      space = { params };
    }
    const req: OptimizeRequest = {
      script: source,
      data: bars,
      space,
      validation: validationOf(a, bars.length),
      ...(a.trials !== undefined ? { n_trials: a.trials } : {}),
      ...(a.sampler !== undefined ? { sampler: a.sampler } : {}),
      ...(a.objective !== undefined ? { objective: a.objective } : {}),
      ...(a.minTrades !== undefined ? { min_trades: a.minTrades } : {}),
      ...(a.seed !== undefined ? { seed: a.seed } : {}),
    };
    const study = prepareStudy(req);
    const tty = !a.json && !!process.stderr.isTTY;
    let best = "-";
    const res = await runStudy(study, (inputs, slice) => engine.run({ script: source, data: slice, symbol: "CHART", broker: TRIAL_BROKER, options: { mode: "auto", inputs } }), {
      concurrency: engine.concurrency,
      onProgress: (p) => {
        if (p.best_index !== null) {
          const t = p.best_index === p.trial.index ? p.trial : undefined;
          if (t) best = fmt(t.oos_score ?? t.is_score);
        }
        if (tty) process.stderr.write(progressBar(p.completed, p.total, best));
      },
    });
    if (tty) process.stderr.write("\n");
    if (a.json) console.log(JSON.stringify({ status: "success", ...res }));
    else printTable(res);
    const failed = res.trials.filter((t) => t.error);
    if (failed.length === res.trials.length) {
      console.error(`resin optimize: every trial failed: ${failed[0]?.error}`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`resin optimize: ${e.message}`);
      return 2;
    }
    if (e instanceof OptimizeError) {
      console.error(`resin optimize: [${e.code}] ${e.message}`);
      return USAGE_CODES.has(e.code) ? 2 : 1;
    }
    throw e;
  } finally {
    await engine.close?.();
  }
}
