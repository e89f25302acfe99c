// resin run <script> [--bars N] [--data file.csv|file.json] [--data-feed feed.json]
//   [--syminfo file.json|file.toml] [--timeframe tf] [--mode m] [--inputs json] [--symbol S] [--json]
//   [--realtime-last-bar] [--realtime-ticks N] [--realtime-bars N] [--realtime-from-bar N]
// Runs a script (service.md 5). Without --data it uses seeded random-walk bars (src/runtime/synthetic.ts). Prints the
// last value of each plot, the strategy summary for strategies, the mode and the time; --json
// prints the full result object on stdout and nothing else there.
// Exit codes: 0 ok, 1 script or run error, 2 usage error.
import { UsageError, readText } from "./args.js";
import type { OhlcvInput, RunResult, SymInfo } from "../core/result.js";
import { barsFromJson, isBarDataError, parseCsvBars, parseJsonBars } from "../core/bars.js";
import { parseTimeframe } from "../core/time-frames.js";
import { parseSymInfoJson, parseSymInfoToml } from "../core/syminfo.js";
import { Runtime } from "../runtime/index.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import { formatStrategySummary } from "../strategy/index.js";

const USAGE = `Usage: resin run <script.pine> [options]

Options:
  --bars N            seeded random-walk bars to generate when no --data is given (default 20)
  --data FILE         bars from a CSV or JSON file (time,open,high,low,close,volume)
  --data-feed FILE    bars of other symbols/timeframes for request.* and the bar magnifier: a JSON
                      object {"SYMBOL": bars, "SYMBOL|TF": bars, ...}, each bars value an array of
                      {time, open, high, low, close, volume?} or columns {time: [], open: [], ...};
                      time in unix seconds or ms. Example: {"BINANCE:ETHUSDT|60": [...]}
  --syminfo FILE      symbol description (JSON or TOML)
  --timeframe TF      chart timeframe ("1", "60", "D", ...); default: inferred from the bars
  --mode MODE         interpret | compile | auto (default: $SVC_RUNTIME_MODE, else interpret)
  --inputs JSON       input overrides, e.g. '{"Length": 20}'
  --symbol S          symbol, e.g. BINANCE:BTCUSDT (default CHART)
  --realtime-last-bar the last bar is a forming realtime bar (service.md 1.4)
  --realtime-ticks N  ticks per realtime bar (default 1; more than 1 implies --realtime-last-bar)
  --realtime-bars N   the last N bars are realtime bars
  --realtime-from-bar N  bars from index N on are realtime bars
  --json              print the full result object as JSON
  -h, --help          this help`;

interface Args {
  script?: string;
  bars: number;
  data?: string;
  dataFeed?: string;
  syminfo?: string;
  timeframe?: string;
  mode?: string;
  inputs?: Record<string, unknown>;
  symbol: string;
  json: boolean;
  help: boolean;
  realtimeLastBar?: boolean;
  realtimeTicks?: number;
  realtimeBars?: number;
  realtimeFromBar?: number;
}


const VALUE_FLAGS = new Set(["--bars", "--data", "--data-feed", "--syminfo", "--timeframe", "--mode", "--inputs", "--symbol", "--realtime-ticks", "--realtime-bars", "--realtime-from-bar"]);

export function parseArgs(argv: string[]): Args {
  const a: Args = { bars: 20, symbol: "CHART", json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    let value: string | undefined;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === "--json") a.json = true;
    else if (arg === "--realtime-last-bar") a.realtimeLastBar = true;
    else if (arg === "-h" || arg === "--help") a.help = true;
    else if (VALUE_FLAGS.has(arg)) {
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new UsageError(`${arg} needs a value`);
      }
      switch (arg) {
        case "--bars": {
          const n = Number(value);
          if (!Number.isInteger(n) || n < 0) throw new UsageError(`--bars must be a non-negative integer, got '${value}'`);
          a.bars = n;
          break;
        }
        case "--realtime-ticks":
        case "--realtime-bars":
        case "--realtime-from-bar": {
          const n = Number(value);
          if (!Number.isInteger(n) || n < (arg === "--realtime-from-bar" ? 0 : 1)) throw new UsageError(`${arg} must be ${arg === "--realtime-from-bar" ? "a non-negative" : "a positive"} integer, got '${value}'`);
          if (arg === "--realtime-ticks") a.realtimeTicks = n;
          else if (arg === "--realtime-bars") a.realtimeBars = n;
          else a.realtimeFromBar = n;
          break;
        }
        case "--data": a.data = value; break;
        case "--data-feed": a.dataFeed = value; break;
        case "--syminfo": a.syminfo = value; break;
        case "--timeframe": a.timeframe = value; break;
        case "--mode": a.mode = value; break;
        case "--symbol": a.symbol = value; break;
        case "--inputs": {
          let parsed: unknown;
          try {
            parsed = JSON.parse(value);
          } catch {
            throw new UsageError(`--inputs must be a JSON object, got '${value}'`);
          }
          if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError("--inputs must be a JSON object");
          a.inputs = parsed as Record<string, unknown>;
          break;
        }
      }
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option '${arg}'`);
    else if (a.script === undefined) a.script = arg;
    else throw new UsageError(`unexpected argument '${arg}'`);
  }
  return a;
}

/** A data-feed file as RunOptions.dataFeed, or the message of its first problem. */
export function parseDataFeed(text: string): Record<string, OhlcvInput> | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { error: 'expected a JSON object {"SYMBOL" or "SYMBOL|TF": bars, ...}' };
  const feed: Record<string, OhlcvInput> = {};
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    const bar = key.lastIndexOf("|");
    const symbol = bar < 0 ? key : key.slice(0, bar);
    if (symbol.trim() === "") return { error: `key "${key}": the symbol is empty` };
    if (bar >= 0 && !parseTimeframe(key.slice(bar + 1))) return { error: `key "${key}": "${key.slice(bar + 1)}" is not a timeframe (e.g. "60", "1D")` };
    const cols = barsFromJson(value);
    if (isBarDataError(cols)) return { error: `"${key}": ${cols.error}` };
    feed[key] = cols;
  }
  return feed;
}

function fmt(v: unknown): string {
  if (v === null || v === undefined) return "na";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(10)));
  return String(v);
}

export async function command(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    console.error(`resin run: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.script) {
    console.error(`resin run: missing <script>\n\n${USAGE}`);
    return 2;
  }
  let source: string;
  let data: OhlcvInput;
  let syminfo: SymInfo | undefined;
  let timeframe = args.timeframe;
  let dataFeed: Record<string, OhlcvInput> | undefined;
  try {
    source = readText(args.script, "script");
    if (args.data) {
      const text = readText(args.data, "data file");
      const cols = args.data.toLowerCase().endsWith(".json") ? parseJsonBars(text) : parseCsvBars(text);
      if (isBarDataError(cols)) {
        console.error(`resin run: ${args.data}${cols.line ? `:${cols.line}` : ""}: ${cols.error}`);
        return 1;
      }
      data = cols;
    } else data = randomWalkBars(args.bars);
    if (args.dataFeed) {
      const feed = parseDataFeed(readText(args.dataFeed, "data feed file"));
      if ("error" in feed && typeof feed.error === "string") {
        console.error(`resin run: ${args.dataFeed}: ${feed.error}`);
        return 1;
      }
      dataFeed = feed as Record<string, OhlcvInput>;
    }
    if (args.syminfo) {
      const text = readText(args.syminfo, "syminfo file");
      const loaded = args.syminfo.toLowerCase().endsWith(".toml") ? parseSymInfoToml(text) : parseSymInfoJson(text);
      if ("error" in loaded) {
        console.error(`resin run: ${args.syminfo}: ${loaded.error}`);
        return 2;
      }
      syminfo = loaded.syminfo;
      timeframe ??= loaded.timeframe;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`resin run: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const rt = new Runtime(args.symbol, { syminfo, timeframe });
  const t0 = performance.now();
  const realtime = { realtimeLastBar: args.realtimeLastBar, realtimeTicks: args.realtimeTicks, realtimeBars: args.realtimeBars, realtimeFromBar: args.realtimeFromBar };
  const result = await rt.run(source, data, { mode: args.mode, inputs: args.inputs, dataFeed, ...realtime });
  const ms = performance.now() - t0;
  if (args.json) {
    process.stdout.write(JSON.stringify(result, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v)) + "\n");
    return result.error && !result.timed_out ? 1 : 0;
  }
  if (result.error) {
    printError(args.script, result);
    return 1;
  }
  printTable(result);
  if (result.strategy) console.log("\n" + formatStrategySummary(result.strategy));
  console.log(`\n${result.script_type} '${result.script_name}': ${result.count} bars, mode ${result.mode}${result.auto_backend ? ` (auto -> ${result.auto_backend}${result.compile_fallback_reason ? `: ${result.compile_fallback_reason}` : ""})` : ""}, ${ms.toFixed(1)} ms${result.timed_out ? " (timed out)" : ""}`);
  return 0;
}

function printError(file: string, r: RunResult): void {
  const d = r.diagnostics?.[0];
  const where = d ? `${file}:${d.line}:${d.column}: ` : r.error_bar !== undefined ? `${file}: bar ${r.error_bar}: ` : `${file}: `;
  console.error(`${where}${r.error_kind} error: ${r.error}`);
}

function printTable(r: RunResult): void {
  const rows = Object.entries(r.series).map(([k, col]) => [k, r.plot_meta[k]?.kind ?? "", fmt(col[col.length - 1])]);
  if (!rows.length) {
    console.log("(no plots)");
    return;
  }
  const w0 = Math.max(4, ...rows.map((x) => x[0]!.length));
  const w1 = Math.max(4, ...rows.map((x) => x[1]!.length));
  console.log(`${"plot".padEnd(w0)}  ${"kind".padEnd(w1)}  last`);
  for (const [k, kind, v] of rows) console.log(`${k!.padEnd(w0)}  ${kind!.padEnd(w1)}  ${v}`);
}
