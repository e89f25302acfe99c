// The interpreter's per-site request calls (Compiler.siteRequestCall: strategy.exit, and the other order
// calls, whose requests keep their sites' memories of their logged calls): numbers go into
// the site's Float64Array and loadNums, never through a boxed argument array. Each run must equal
// the general path it replaces (the impl with its argument array, forced here by hiding the
// builtin's siteRequest) and the compile backend, on random argument shapes, orders and values.
import { afterEach, describe, expect, it } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import { siteRequestBuilds } from "../../src/interpret/compiler.js";
import { Runtime } from "../../src/runtime/index.js";
import type { RunResult } from "../../src/core/result.js";
import type { Bar } from "../../src/core/result.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

const exitDef = functions["strategy.exit"]!;
const siteRequest = exitDef.siteRequest;

afterEach(() => {
  exitDef.siteRequest = siteRequest;
});

/** A seeded generator of integers in [0, n). */
function seeded(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

const pick = <T>(r: (n: number) => number, xs: readonly T[]): T => xs[r(xs.length)]!;

/** A seeded random walk of 300 bars (moves of a few points, so exits of a few hundred ticks fill). */
function walk(seed: number): Bar[] {
  const r = seeded(seed);
  const out: Bar[] = [];
  let close = 100;
  for (let i = 0; i < 300; i++) {
    const open = close;
    close = Math.max(10, open + (r(401) - 200) / 50);
    const high = Math.max(open, close) + r(100) / 50;
    const low = Math.min(open, close) - r(100) / 50;
    out.push({ time: 1_700_000_000_000 + i * 60_000, open, high, low, close, volume: 1000 + r(500) });
  }
  return out;
}

/** Price-distance arguments (ticks) and their possible values: constants, series, na, a sometimes-na variable. */
const TICKS = ["profit", "loss", "trail_points", "trail_offset"] as const;
const PRICES = ["limit", "stop", "trail_price"] as const;
const TICK_VALUES = ["300", "atr * 80", "na", "maybe", "int(atr * 40) + 5"];
const PRICE_VALUES = ["close * 1.01", "close * 0.99", "na", "low - atr", "high + atr"];

/** A strategy with two entries and exits whose given arguments, order and values come from `seed`. */
function exitScript(seed: number): string {
  const r = seeded(seed);
  const exit = (id: string, from: string) => {
    const args: string[] = [];
    for (const t of TICKS) if (r(2)) args.push(`${t} = ${pick(r, TICK_VALUES)}`);
    for (const p of PRICES) if (r(3) === 0) args.push(`${p} = ${pick(r, PRICE_VALUES)}`);
    if (r(3) === 0) args.push(`qty_percent = ${pick(r, ["50", "pct", "na"])}`);
    if (r(3) === 0) args.push(`comment = ${pick(r, ['"x"', "note", "na"])}`);
    if (r(4) === 0) args.push(`disable_alert = ${pick(r, ["true", "bar_index % 2 == 0"])}`);
    if (args.length === 0) args.push("loss = 200");
    // (named arguments in a random written order: the order they are evaluated in)
    for (let i = args.length - 1; i > 0; i--) {
      const j = r(i + 1);
      [args[i], args[j]] = [args[j]!, args[i]!];
    }
    const fromArg = r(2) ? `"${from}"` : `from_entry = "${from}"`;
    return `strategy.exit("${id}", ${fromArg}, ${args.join(", ")})`;
  };
  return v6(
    `atr = ta.atr(10)
float maybe = bar_index % 3 == 0 ? na : atr * 60
pct = bar_index % 2 == 0 ? 40.0 : 100.0
note = bar_index % 4 == 0 ? "odd" : na
if bar_index % 20 == 0
    strategy.entry("L", strategy.long)
if bar_index % 20 == 10
    strategy.entry("S", strategy.short)
${exit("XL", "L")}
${exit("XS", "S")}
plot(strategy.position_size)`,
    "strategy('t', pyramiding = 2)",
  );
}

/** The interpret run through the general call (argument array), the builtin's siteRequest hidden. */
async function generalRun(source: string, data: Bar[]): Promise<RunResult> {
  exitDef.siteRequest = undefined;
  try {
    return await new Runtime("CHART").run(source, data, { mode: "interpret" });
  } finally {
    exitDef.siteRequest = siteRequest;
  }
}

function strip(r: RunResult): unknown {
  const { run_id: _r, profile: _p, ...rest } = r;
  return { ...rest, events: rest.events.map(({ run_id: _x, ...e }) => e) };
}

describe("strategy.exit through the interpreter's per-site request", () => {
  it("equals the general call and the compile backend on random argument shapes", async () => {
    let closed = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const source = exitScript(seed);
      const before = siteRequestBuilds.count;
      const data = walk(seed);
      const fast = await runBoth(source, data);
      // (both exits and both entries)
      expect(siteRequestBuilds.count - before, `seed ${seed}: both exits took the per-site request`).toBe(4);
      expect(fast.error, `seed ${seed}`).toBeUndefined();
      closed += fast.strategy!.trades.filter((t) => t.exit_id === "XL" || t.exit_id === "XS").length;
      expect(strip(fast), `seed ${seed}\n${source}`).toEqual(strip(await generalRun(source, data)));
    }
    // (the exits did close trades)
    expect(closed).toBeGreaterThan(100);
  }, 120_000);

  it("raises the general call's error, at the same line and column", async () => {
    const source = v6(
      `id = bar_index < 30 ? "X" : na
if bar_index == 5
    strategy.entry("L", strategy.long)
strategy.exit(id, "L", loss = close * 0.01, profit = 300)`,
      "strategy('t')",
    );
    const fast = await runBoth(source, bars(60));
    expect(fast.error).toMatch(/id/);
    expect(strip(fast)).toEqual(strip(await generalRun(source, bars(60))));
  });

  it("loadNums writes each numeric field from its parameter's index", () => {
    const sr = siteRequest!;
    const nums = Float64Array.from(sr.fields, (_, i) => i + 0.5);
    const req = sr.make() as Record<string, unknown>;
    sr.loadNums(req, nums);
    const numeric = sr.fields.map(([f, c], i) => [f, c, i] as const).filter(([, c]) => c === "num");
    expect(numeric.length).toBe(9);
    for (const [field, , i] of numeric) expect(req[field], field).toBe(i + 0.5);
  });
});

/** strategy.entry / order / close / close_all / cancel / cancel_all: their siteRequests, to hide. */
const ORDER_CALLS = [
  "strategy.entry",
  "strategy.order",
  "strategy.close",
  "strategy.close_all",
  "strategy.cancel",
  "strategy.cancel_all",
] as const;

/** A strategy placing, closing and cancelling orders with arguments, order and values from `seed`. */
function orderScript(seed: number): string {
  const r = seeded(seed);
  const maybe = (p: number, s: string) => (r(p) === 0 ? s : "");
  const qty = () => pick(r, ["", ", qty = 2", ", qty = q", ", qty = na"]);
  const level = (k: string) =>
    maybe(3, `, ${k} = ${pick(r, ["close * 1.01", "close * 0.99", "na", "high + atr", "low - atr"])}`);
  const comment = () => maybe(3, `, comment = ${pick(r, ['"c"', "note", "na"])}`);
  const oca = () =>
    maybe(
      4,
      `, oca_name = "g", oca_type = ${pick(r, ["strategy.oca.cancel", "strategy.oca.reduce", "strategy.oca.none"])}`,
    );
  const lines: string[] = [];
  for (let k = 0; k < 6; k++) {
    const cond = pick(r, [
      "bar_index % 7 == 0",
      "bar_index % 3 == 1",
      "strategy.position_size == 0",
      "strategy.position_size != 0",
      "close > open",
      "true",
    ]);
    const id = pick(r, ['"L"', '"S"', '"O"', "sid"]);
    const call = pick(r, [
      `strategy.entry(${id}, strategy.long${qty()}${level("stop")}${level("limit")}${oca()}${comment()})`,
      `strategy.entry(${id}, ${pick(r, ["strategy.short", "dir"])}${qty()}${level("limit")}${comment()})`,
      `strategy.order(${id}, strategy.long${qty()}${level("stop")}${oca()}${comment()})`,
      `strategy.close(${id}${comment()}${maybe(2, ", qty_percent = 50")}${maybe(4, ", immediately = true")})`,
      `strategy.close_all(${pick(r, ["", 'comment = "all"', "immediately = bar_index % 5 == 0"])})`,
      `strategy.cancel(${id})`,
      "strategy.cancel_all()",
    ]);
    lines.push(`if ${cond}\n    ${call}`);
  }
  return v6(
    `atr = ta.atr(10)
q = bar_index % 2 == 0 ? 1.0 : 3.0
note = bar_index % 4 == 0 ? "odd" : na
sid = bar_index % 9 < 4 ? "L" : "S"
dir = bar_index % 6 < 3 ? strategy.long : strategy.short
${lines.join("\n")}
strategy.exit("XL", "L", loss = 300, profit = 400)
plot(strategy.position_size)`,
    `strategy('t', pyramiding = ${1 + r(3)}, default_qty_type = strategy.percent_of_equity, default_qty_value = 10)`,
  );
}

describe("strategy.entry, order, close, close_all, cancel and cancel_all through per-site requests", () => {
  const saved = ORDER_CALLS.map((n) => functions[n]!.siteRequest);
  afterEach(() => {
    ORDER_CALLS.forEach((n, i) => {
      functions[n]!.siteRequest = saved[i];
    });
  });

  it("equal the general call (argument array) and the compile backend on random order flow", async () => {
    let events = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const source = orderScript(seed);
      const data = walk(seed + 100);
      const before = siteRequestBuilds.count;
      const fast = await runBoth(source, data);
      // (every order call and the exit took its site's request)
      expect(siteRequestBuilds.count - before, `seed ${seed}`).toBe(7);
      events += fast.events.length;
      for (const n of ORDER_CALLS) functions[n]!.siteRequest = undefined;
      functions["strategy.exit"]!.siteRequest = undefined;
      let general: RunResult;
      try {
        general = await new Runtime("CHART").run(source, data, { mode: "interpret" });
      } finally {
        ORDER_CALLS.forEach((n, i) => {
          functions[n]!.siteRequest = saved[i];
        });
        functions["strategy.exit"]!.siteRequest = siteRequest;
      }
      expect(strip(fast), `seed ${seed}\n${source}`).toEqual(strip(general));
    }
    expect(events).toBeGreaterThan(20_000);
  }, 180_000);

  it("raise the general call's errors (an na id, a bad direction), at the same line", async () => {
    for (const call of [
      `strategy.entry(bar_index < 20 ? "L" : na, strategy.long)`,
      `strategy.close(bar_index < 20 ? "L" : na)`,
      `strategy.cancel(bar_index < 20 ? "L" : na)`,
    ]) {
      const source = v6(`strategy.entry("L", strategy.long)\n${call}`, "strategy('t')");
      const fast = await runBoth(source, bars(60));
      expect(fast.error, call).toMatch(/id/);
      for (const n of ORDER_CALLS) functions[n]!.siteRequest = undefined;
      try {
        expect(strip(fast)).toEqual(strip(await new Runtime("CHART").run(source, bars(60), { mode: "interpret" })));
      } finally {
        ORDER_CALLS.forEach((n, i) => {
          functions[n]!.siteRequest = saved[i];
        });
      }
    }
  });
});
