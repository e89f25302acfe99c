// Real-world corpus: every tests/realworld/scripts/*.pine runs through the public Runtime on
// deterministic random-walk bars, in interpret and in compile mode. A script must run without
// error, produce series for its plots and give identical series, trades, equity, alerts and
// drawing count in both modes; the compile run must really compile (calc_on_order_fills scripts
// too, since issue 18 part 5). Header comments add expectations:
//   // qa-numeric: A; B   plots A and B hold numbers on every bar after warm-up
//   // qa-some: A         sparse signal A fires at least once
//   // qa-drawings: N     at least N drawings (lines, labels, boxes, tables, ...)
//   // qa-trades: N       at least N trades (closed + open)
//   // qa-alerts: N       at least N fired alert() calls
// so silently empty output is caught. A second pass replays the last 3 bars as realtime bars
// (4 ticks each) in both modes and requires no error and the same outputs; `// qa-realtime-same: A`
// also requires plot A to commit the same values as the historical run. Scripts that fail today are listed in KNOWN_FAILURES and
// run as it.fails, so a fix shows up as an unexpected pass and the table gets updated.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import type { RunResult } from "../../src/core/result.js";
import { randomWalkBars } from "./bars.js";
import { KNOWN_FAILURES, REALTIME_KNOWN_FAILURES } from "./known-failures.js";

const here = dirname(fileURLToPath(import.meta.url));
const scriptDir = join(here, "scripts");
const scripts = readdirSync(scriptDir)
  .filter((f) => f.endsWith(".pine"))
  .sort();
const BARS = randomWalkBars(1500, 42);
/** Bars after which a declared numeric plot must hold numbers (longest warm-up in the corpus ~200). */
const WARMUP = 300;

/** Titles named in `// qa-numeric: A; B` lines. */
function numericTitles(src: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/^\/\/\s*qa-numeric:\s*(.+)$/gm)) {
    for (const t of m[1]!.split(";")) if (t.trim()) out.push(t.trim());
  }
  return out;
}

/** Titles named in `// qa-some: A; B` lines: series that must hold at least one value (sparse signals). */
function someTitles(src: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/^\/\/\s*qa-some:\s*(.+)$/gm)) {
    for (const t of m[1]!.split(";")) if (t.trim()) out.push(t.trim());
  }
  return out;
}

/** `// qa-drawings: N`: the script must leave at least N drawings (lines, labels, boxes, ...). */
function minDrawings(src: string): number {
  const m = /^\/\/\s*qa-drawings:\s*(\d+)\s*$/m.exec(src);
  return m ? Number(m[1]) : 0;
}

/** `// qa-<name>: N` header value, or 0. */
function minCount(src: string, name: string): number {
  const m = new RegExp(`^//\\s*qa-${name}:\\s*(\\d+)\\s*$`, "m").exec(src);
  return m ? Number(m[1]) : 0;
}

/** Does the script call a plotting function that yields a series? */
function plots(src: string): boolean {
  return /^[^/\n]*\b(plot|plotshape|plotchar|plotcandle|plotbar|plotarrow|bgcolor|barcolor)\s*\(/m.test(src);
}

function failText(r: RunResult): string {
  const d = (r.diagnostics ?? []).map((x) => JSON.stringify(x)).join("\n");
  return `${r.error_kind}: ${r.error}${r.error_bar !== undefined ? ` (bar ${r.error_bar})` : ""}\n${d}`;
}

/** NaN-safe identity of two series (NaN == NaN, -0 == 0 is not relaxed). */
function sameSeries(a: RunResult["series"], b: RunResult["series"]): string | null {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join("|") !== kb.join("|")) return `series keys differ: [${ka}] vs [${kb}]`;
  for (const k of ka) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.length !== y.length) return `${k}: length ${x.length} vs ${y.length}`;
    for (let i = 0; i < x.length; i++) {
      const u = x[i];
      const v = y[i];
      if (Object.is(u, v)) continue;
      if (typeof u === "number" && typeof v === "number" && Number.isNaN(u) && Number.isNaN(v)) continue;
      return `${k}[${i}]: interpret ${String(u)} vs compile ${String(v)}`;
    }
  }
  return null;
}

async function check(file: string): Promise<void> {
  const src = readFileSync(join(scriptDir, file), "utf8");
  const rt = new Runtime("CHART", { timeframe: "60" });
  const a = await rt.run(src, BARS, { mode: "interpret" });
  if (a.error !== undefined) throw new Error(`interpret: ${failText(a)}`);
  const b = await rt.run(src, BARS, { mode: "compile" });
  if (b.error !== undefined) throw new Error(`compile: ${failText(b)}`);
  // mode "compile" runs interpret for ineligible scripts (service.md 1.1); none is today (request.*
  // and calc_on_order_fills compile since issue 18 part 5), and a fallback would make the comparison
  // below compare interpret with itself
  if (b.mode !== "compile") {
    const auto = await rt.run(src, BARS, { mode: "auto" });
    throw new Error(`compile mode ran ${b.mode}: ${auto.compile_fallback_reason ?? "no reason given"}`);
  }
  expect(a.count).toBe(BARS.length);
  if (plots(src)) expect(Object.keys(a.series).length).toBeGreaterThan(0);
  for (const title of numericTitles(src)) {
    const s = a.series[title];
    if (s === undefined) throw new Error(`no series "${title}" (have: ${Object.keys(a.series).join(", ")})`);
    const tail = s.slice(WARMUP);
    const bad = tail.findIndex((v) => typeof v !== "number" || Number.isNaN(v));
    if (bad >= 0) throw new Error(`series "${title}" is na/non-numeric at bar ${bad + WARMUP} after warm-up`);
  }
  for (const title of someTitles(src)) {
    const s = a.series[title];
    if (s === undefined) throw new Error(`no series "${title}" (have: ${Object.keys(a.series).join(", ")})`);
    if (!s.some((v) => v !== null && v !== false && !(typeof v === "number" && Number.isNaN(v))))
      throw new Error(`series "${title}" never has a value (expected sparse signals)`);
  }
  const wanted = minDrawings(src);
  if (a.drawings.length < wanted) throw new Error(`${a.drawings.length} drawings, expected at least ${wanted}`);
  const trades = minCount(src, "trades");
  const got = (a.strategy?.trades.length ?? 0) + (a.strategy?.open_trades.length ?? 0);
  if (got < trades) throw new Error(`${got} trades, expected at least ${trades}`);
  const alerts = minCount(src, "alerts");
  if (a.alerts.length < alerts) throw new Error(`${a.alerts.length} alerts fired, expected at least ${alerts}`);
  expectModesAgree(a, b, "interpret != compile");
}

/** Interpret's run `a` and compile's `b` agree: every series, trade, open trade, equity point and alert. */
function expectModesAgree(a: RunResult, b: RunResult, what: string): void {
  const diff = sameSeries(a.series, b.series);
  if (diff !== null) throw new Error(`${what}: ${diff}`);
  if (a.strategy || b.strategy) {
    // the whole list of trades, open trades and the equity curve must agree, not just totals
    expect(b.strategy?.trades).toEqual(a.strategy?.trades);
    expect(b.strategy?.open_trades).toEqual(a.strategy?.open_trades);
    expect(b.strategy?.equity).toEqual(a.strategy?.equity);
  }
  expect(b.drawings.length).toBe(a.drawings.length);
  expect(b.alerts).toEqual(a.alerts);
}

/**
 * Body of an it.fails case: throws (the expected outcome) only when the script still fails with
 * its recorded error. A different error returns normally, so it.fails reports the case and the
 * KNOWN_FAILURES entry gets updated instead of silently covering a new fault.
 */
async function failsAsKnown(file: string, knownError: string): Promise<void> {
  try {
    await check(file);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (msg.includes(knownError)) throw err;
    console.error(
      `${file}: fails differently than recorded.\n  recorded: ${knownError}\n  now:      ${msg.split("\n")[0]}`,
    );
    return;
  }
}

/**
 * The last 3 bars replayed as realtime bars of 4 ticks each (service.md 1.4): must not error, and
 * compile mode (its re-runnable bar body runs each tick, issue 18) must compile and agree with interpret.
 */
async function checkRealtime(file: string): Promise<void> {
  const src = readFileSync(join(scriptDir, file), "utf8");
  const rt = new Runtime("CHART", { timeframe: "60" });
  const r = await rt.run(src, BARS, { mode: "interpret", realtimeBars: 3, realtimeTicks: 4 });
  if (r.error !== undefined) throw new Error(`realtime: ${failText(r)}`);
  expect(r.count).toBe(BARS.length);
  const c = await rt.run(src, BARS, { mode: "compile", realtimeBars: 3, realtimeTicks: 4 });
  if (c.error !== undefined) throw new Error(`realtime compile: ${failText(c)}`);
  if (c.mode !== "compile") throw new Error(`realtime compile mode ran ${c.mode}: ${c.compile_fallback_reason}`);
  expectModesAgree(r, c, "realtime: interpret != compile");
  // `// qa-realtime-same: A`: plot A commits the same values as the historical run (non-varip
  // state, var collections and objects included, is rolled back before every tick)
  const titles = namedList(src, "realtime-same");
  if (titles.length === 0) return;
  const h = await rt.run(src, BARS, { mode: "interpret" });
  for (const title of titles) {
    const x = h.series[title];
    const y = r.series[title];
    if (x === undefined || y === undefined) throw new Error(`realtime: no series "${title}"`);
    const i = x.findIndex((v, j) => !(Object.is(v, y[j]) || (v === null && y[j] === null)));
    if (i >= 0)
      throw new Error(
        `realtime: series "${title}" differs from history at bar ${i}: ${String(x[i])} vs ${String(y[i])}`,
      );
  }
}

/** Titles named in `// qa-<name>: A; B` lines. */
function namedList(src: string, name: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(new RegExp(`^//\\s*qa-${name}:\\s*(.+)$`, "gm"))) {
    for (const t of m[1]!.split(";")) if (t.trim()) out.push(t.trim());
  }
  return out;
}

async function realtimeFailsAsKnown(file: string, knownError: string): Promise<void> {
  try {
    await checkRealtime(file);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (msg.includes(knownError)) throw err;
    console.error(
      `${file}: fails differently than recorded.\n  recorded: ${knownError}\n  now:      ${msg.split("\n")[0]}`,
    );
    return;
  }
}

describe("real-world scripts", () => {
  it("has a corpus of at least 60 scripts", () => {
    expect(scripts.length).toBeGreaterThanOrEqual(60);
  });
  it("lists only existing scripts as known failures", () => {
    for (const name of Object.keys(KNOWN_FAILURES)) expect(scripts).toContain(name);
  });
  for (const file of scripts) {
    const known = KNOWN_FAILURES[file];
    if (known) it.fails(`${file} [known: ${known.area}]`, () => failsAsKnown(file, known.error), 20_000);
    else it(file, () => check(file), 20_000);
  }
});

describe("real-world scripts, last 3 bars in realtime", () => {
  for (const file of scripts) {
    const known = REALTIME_KNOWN_FAILURES[file];
    if (known) it.fails(`${file} [known: ${known.area}]`, () => realtimeFailsAsKnown(file, known.error), 20_000);
    else it(file, () => checkRealtime(file), 20_000);
  }
});
