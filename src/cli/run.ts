// resin run <script> (options declared in index.ts, which loads this module only for `run`).
// Runs a script (service.md 5). Without --data it uses seeded random-walk bars (src/runtime/synthetic.ts). Prints the
// last value of each plot, the strategy summary for strategies, the mode and the time; --json
// prints the full result object on stdout and nothing else there.
// Exit codes: 0 ok, 1 script or run error, 2 usage error.
import { UsageError, readText } from "./args.js";
import type { RunOptions as Args } from "./options.js";
import type { OhlcvInput, RunResult, SymInfo } from "../core/result.js";
import { barsFromJson, isBarDataError, parseCsvBars, parseJsonBars, type TimeUnit } from "../core/bars.js";
import { parseTimeframe } from "../core/time-frames.js";
import { parseSymInfoJson, parseSymInfoToml } from "../core/syminfo.js";
import { Runtime } from "../runtime/index.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import { formatStrategySummary } from "../strategy/index.js";

/** A data-feed file as RunOptions.dataFeed, or the message of its first problem. */
export function parseDataFeed(
  text: string,
  timeUnit: TimeUnit = "auto",
): Record<string, OhlcvInput> | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    return { error: 'expected a JSON object {"SYMBOL" or "SYMBOL|TF": bars, ...}' };
  const feed: Record<string, OhlcvInput> = {};
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    const bar = key.lastIndexOf("|");
    const symbol = bar < 0 ? key : key.slice(0, bar);
    if (symbol.trim() === "") return { error: `key "${key}": the symbol is empty` };
    if (bar >= 0 && !parseTimeframe(key.slice(bar + 1)))
      return { error: `key "${key}": "${key.slice(bar + 1)}" is not a timeframe (e.g. "60", "1D")` };
    const cols = barsFromJson(value, { timeUnit });
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

export async function execute(script: string, args: Args): Promise<number> {
  let source: string;
  let data: OhlcvInput;
  let syminfo: SymInfo | undefined;
  let timeframe = args.timeframe;
  let dataFeed: Record<string, OhlcvInput> | undefined;
  try {
    source = readText(script, "script");
    if (args.data) {
      const text = readText(args.data, "data file");
      const cols = args.data.toLowerCase().endsWith(".json")
        ? parseJsonBars(text, { timeUnit: args.timeUnit })
        : parseCsvBars(text, { timeUnit: args.timeUnit });
      if (isBarDataError(cols)) {
        console.error(`resin run: ${args.data}${cols.line ? `:${cols.line}` : ""}: ${cols.error}`);
        return 1;
      }
      data = cols;
    } else data = randomWalkBars(args.bars);
    if (args.dataFeed) {
      const feed = parseDataFeed(readText(args.dataFeed, "data feed file"), args.timeUnit);
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
  const realtime = {
    realtimeLastBar: args.realtimeLastBar,
    realtimeTicks: args.realtimeTicks,
    realtimeBars: args.realtimeBars,
    realtimeFromBar: args.realtimeFromBar,
  };
  const result = await rt.run(source, data, {
    mode: args.mode,
    inputs: args.inputs,
    dataFeed,
    ...realtime,
    ...(args.backtestStart !== undefined ? { backtestStart: args.backtestStart } : {}),
  });
  const ms = performance.now() - t0;
  if (args.json) {
    process.stdout.write(
      JSON.stringify(result, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v)) + "\n",
    );
    return result.error && !result.timed_out ? 1 : 0;
  }
  if (result.error) {
    printError(script, result);
    return 1;
  }
  // cli-table3 is loaded only for the text output (`--json` never needs it).
  const { renderTable } = await import("./table.js");
  printTable(result, renderTable);
  if (result.strategy) console.log("\n" + formatStrategySummary(result.strategy));
  console.log(
    `\n${result.script_type} '${result.script_name}': ${result.count} bars, mode ${result.mode}${result.auto_backend ? ` (auto -> ${result.auto_backend}${result.compile_fallback_reason ? `: ${result.compile_fallback_reason}` : ""})` : ""}, ${ms.toFixed(1)} ms${result.timed_out ? " (timed out)" : ""}`,
  );
  return 0;
}

function printError(file: string, r: RunResult): void {
  const d = r.diagnostics?.[0];
  const where = d
    ? `${file}:${d.line}:${d.column}: `
    : r.error_bar !== undefined
      ? `${file}: bar ${r.error_bar}: `
      : `${file}: `;
  console.error(`${where}${r.error_kind} error: ${r.error}`);
}

function printTable(r: RunResult, renderTable: typeof import("./table.js").renderTable): void {
  const rows = Object.entries(r.series).map(([k, col]) => [k, r.plot_meta[k]?.kind ?? "", fmt(col[col.length - 1])]);
  if (!rows.length) {
    console.log("(no plots)");
    return;
  }
  console.log(renderTable(["plot", "kind", "last"], rows as string[][], ["left", "left", "right"]));
}
