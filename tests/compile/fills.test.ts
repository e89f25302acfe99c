// calc_on_order_fills in the compile backend (issue 18 part 5): the broker runs the script again
// inside a bar after fills (src/strategy/broker.ts afterFills), and the compiled loop's bar body is
// that re-run (codegen.ts `generate(.., fills)`), rolled back by the same code as the interpreter's
// (src/runtime/rerun.ts): var and series values, history, call-site state and collections go back,
// varip stays, orders placed in the extra execution stay. Every script here must give exactly the
// interpreter's result and compile mode must really compile. Expected values are worked out by hand
// on the path of tests/strategy/recalc.test.ts (bar 1: 100 -> 95 -> 110 -> 105).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import type { Bar, RunOptions, RunResult } from "../../src/core/result.js";
import { emitCompiledModules } from "../../src/compile/emit-module.js";
import { generatedSource } from "../../src/compile/index.js";
import { runModes } from "../helpers/run-both.js";
import { FILL_PATH, hourlyBars } from "../helpers/hourly-bars.js";
import { repositoryStrategies } from "../helpers/strategies.js";
import { firstDifference, comparable, program } from "./parity.js";

/** A market entry on bars 0 and 1 and on every extra execution of bar 1 (the manual's example). */
const BUY = `//@version=6
strategy("s", calc_on_order_fills = true, pyramiding = 100)
if bar_index <= 1
    strategy.entry("Buy", strategy.long)
`;

async function both(
  src: string,
  data: Bar[],
  rt = new Runtime("CHART", {}),
  opts: RunOptions = {},
): Promise<RunResult> {
  const r = await runModes(rt, src, data, opts);
  return r;
}

describe("calc_on_order_fills compiles", () => {
  it("auto and compile mode compile it, also when set through RuntimeOptions.broker", async () => {
    const rt = new Runtime("CHART", {});
    const a = await rt.run(BUY, FILL_PATH, { mode: "auto" });
    expect(a.auto_backend).toBe("compile");
    expect(a.compile_fallback_reason).toBeUndefined();
    const plain = BUY.replace("calc_on_order_fills = true", "calc_on_order_fills = false");
    const viaOverride = new Runtime("CHART", { broker: { calc_on_order_fills: true } });
    const o = await viaOverride.run(plain, FILL_PATH, { mode: "auto" });
    expect(o.auto_backend).toBe("compile");
    expect(o.strategy!.open_trades.map((t) => [t.entry_bar_index, t.entry_price])).toEqual([
      [1, 100],
      [1, 95],
      [1, 110],
      [1, 105],
      [2, 105],
    ]);
    const i = await viaOverride.run(plain, FILL_PATH, { mode: "interpret" });
    expect(firstDifference(comparable(i), comparable(o))).toBeNull();
  });

  it("var and series values are rolled back, their history read in the extra execution, varip kept", async () => {
    // Bar 1's extra executions (after the fills at 100, 95, 110) see total = 100 + close so far and
    // total[1] = 100; each is undone, so the committed totals are 100, 205, 310, 415. The varip
    // counter counts every execution: 1 on bar 0, 2-4 in bar 1's extra ones, 5 at its close, 6 in
    // bar 2's extra one (after the open fill of the order bar 1's close placed), 7, 8.
    const src = `${BUY}var float total = 0.0
total += close
varip int execs = 0
execs += 1
float prev = total[1]
if not barstate.isconfirmed
    log.info("total={0} prev={1} execs={2} pos={3}", total, prev, execs, strategy.position_size)
plot(total, "total")
plot(execs, "execs")
`;
    const r = await both(src, FILL_PATH);
    expect(r.logs.map((l) => [l.bar_index, l.message])).toEqual([
      [1, "total=200 prev=100 execs=2 pos=1"],
      [1, "total=195 prev=100 execs=3 pos=2"],
      [1, "total=210 prev=100 execs=4 pos=3"],
      [2, "total=310 prev=205 execs=6 pos=5"],
    ]);
    expect(r.series.total).toEqual([100, 205, 310, 415]);
    expect(r.series.execs).toEqual([1, 5, 7, 8]);
  });

  it("close[0] and a dynamic close[k] at offset 0 are the bar so far, as close is (not the bar's final close)", async () => {
    const src = `${BUY}k = bar_index % 1
f() => high[k]
if not barstate.isconfirmed
    log.info("{0} {1} {2} {3} {4}", close, close[0], close[k], high[k], f())
`;
    const r = await both(src, FILL_PATH);
    expect(r.logs.map((l) => [l.bar_index, l.message])).toEqual([
      [1, "100 100 100 100 100"],
      [1, "95 95 95 100 100"],
      [1, "110 110 110 110 110"],
      [2, "105 105 105 105 105"],
    ]);
    // a realtime tick likewise (realtime runs interpret in both modes; varip counts every tick)
    const rt = await runModes(
      new Runtime("CHART", {}),
      `//@version=6
indicator("t")
k = bar_index % 1
varip int ticks = 0
varip int off = 0
if barstate.isrealtime
    ticks += 1
    if close[0] != close or close[k] != close or high[k] != high
        off += 1
plot(ticks, "ticks")
plot(off, "off")
`,
      hourlyBars([
        [100, 100, 100, 100],
        [100, 110, 95, 105],
      ]),
      { realtimeLastBar: true, realtimeTicks: 4 },
    );
    expect(rt.series.ticks!.at(-1)).toBe(4);
    expect(rt.series.off!.at(-1)).toBe(0);
  });

  it("user-function state, ta.* calls, arrays and varip collections", async () => {
    // ta.* calls run per bar (no whole-series pass when the script runs again inside bars), a user
    // function's var counter and an array pushed to in every execution are rolled back; a varip
    // array keeps what the extra executions pushed.
    const src = `${BUY}count() =>
    var int c = 0
    c += 1
    c
var a = array.new<float>()
a.push(close)
varip seen = array.new<float>()
seen.push(close)
n = count()
plot(ta.sma(close, 2), "sma")
plot(ta.ema(close, 3), "ema")
plot(ta.highest(high, 2), "hh")
plot(n, "n")
plot(a.size(), "size")
plot(a.sum(), "sum")
plot(seen.size(), "seen")
plot(seen.sum(), "seensum")
`;
    const r = await both(src, FILL_PATH);
    expect(r.series.n).toEqual([1, 2, 3, 4]);
    expect(r.series.size).toEqual([1, 2, 3, 4]);
    expect(r.series.sum).toEqual([100, 205, 310, 415]);
    // bar 1: 100, 95, 110 from the extra executions, then 105; bar 2: 105 twice
    expect(r.series.seen).toEqual([1, 5, 7, 8]);
    expect(r.series.seensum).toEqual([100, 510, 720, 825]);
    expect(r.series.sma).toEqual([null, 102.5, 105, 105]);
  });

  it("orders placed, moved and cancelled in the extra execution", async () => {
    // The entry fills at bar 1's open (100); the extra execution after it places a limit exit at
    // position_avg_price + 5 = 105, reached on the way to 110. The stop entry placed at bar 2's close
    // fills at 107 on bar 3; the execution after that fill places "Ghost" (stop 120, above bar 3's
    // high), and bar 3's closing execution cancels it: bar 4 (high 125) does not fill it.
    const src = `//@version=6
strategy("s", calc_on_order_fills = true, pyramiding = 2)
if strategy.position_size == 0 and bar_index == 0
    strategy.entry("Buy", strategy.long)
if strategy.position_size > 0 and not barstate.isconfirmed
    strategy.exit("Exit", "Buy", limit = strategy.position_avg_price + 5)
if bar_index == 2
    strategy.entry("Again", strategy.long, stop = 107)
if not barstate.isconfirmed and bar_index == 3
    strategy.entry("Ghost", strategy.long, stop = 120)
if barstate.isconfirmed
    strategy.cancel("Ghost")
`;
    const data = hourlyBars([
      [100, 100, 100, 100],
      [100, 110, 99, 108],
      [108, 112, 107, 110],
      [106, 114, 105, 112],
      [112, 125, 111, 121],
    ]);
    const r = await both(src, data);
    const trades = [...r.strategy!.trades, ...r.strategy!.open_trades];
    expect(trades.map((t) => [t.entry_id, t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price])).toEqual([
      ["Buy", 1, 100, 1, 105],
      ["Again", 3, 107, null, null],
    ]);
  });

  it("calc_on_every_tick changes nothing on historical bars; realtime bars compile too", async () => {
    const src = (tick: boolean) => `${BUY.replace("pyramiding = 100", `pyramiding = 100, calc_on_every_tick = ${tick}`)}
var int runs = 0
runs += 1
plot(runs, "runs")
`;
    const on = await both(src(true), FILL_PATH);
    const off = await both(src(false), FILL_PATH);
    expect(on.strategy).toEqual(off.strategy);
    expect(on.series.runs).toEqual([1, 2, 3, 4]);
    // realtime + calc_on_order_fills + calc_on_every_tick: the broker fills tick by tick and re-runs
    // the compiled body after fills inside each tick (tests/compile/realtime.test.ts has more)
    for (const opts of [{ realtimeLastBar: true }, { realtimeBars: 2, realtimeTicks: 4 }]) {
      const rt = await both(src(true), FILL_PATH, new Runtime("CHART", {}), opts);
      expect(rt.error).toBeUndefined();
    }
  });

  it("a runtime error in an extra execution stops both backends on the same bar and line", async () => {
    const src = `${BUY}plot(close)
if not barstate.isconfirmed and close < 100
    runtime.error("dipped")
`;
    const r = await both(src, FILL_PATH);
    expect(r.error_kind).toBe("runtime");
    expect(r.error_bar).toBe(1);
    expect(r.error).toContain("dipped");
  });

  it("generates a loop whose bar body can run again, and emits that variant for the edge", () => {
    const p = program(BUY);
    const text = generatedSource(p, true, true);
    expect(text).toContain("R.rerun = ");
    expect(generatedSource(p, true, false)).not.toContain("R.rerun");
    const mods = emitCompiledModules(p, { script: "s", sourceHash: "h", deploy: "t" });
    expect(mods.map((m) => m.fills)).toContain(true);
  });
});

describe("every strategy of the test sets, with calc_on_order_fills on, gives the same result in both modes", () => {
  const data = randomWalkBars(300, { seed: 11 });
  const rt = new Runtime("CHART", { timeframe: "60", broker: { calc_on_order_fills: true } });
  const plain = new Runtime("CHART", { timeframe: "60" });
  const all = repositoryStrategies();
  let changed = 0;
  let ran = 0;
  it("has the strategies", () => expect(all.length).toBeGreaterThan(150));
  for (const [name, src] of all) {
    it(name, async () => {
      const i = await rt.run(src, data, { mode: "interpret" });
      const c = await rt.run(src, data, { mode: "compile" });
      expect(c.mode, c.compile_fallback_reason).toBe("compile");
      expect(firstDifference(comparable(i), comparable(c))).toBeNull();
      if (!i.error) ran++;
      const off = await plain.run(src, data, { mode: "interpret" });
      if (firstDifference(comparable(off).strategy, comparable(i).strategy) !== null) changed++;
    });
  }
  it("most run, and the setting changes the trades of many (the extra executions happen)", () => {
    expect(ran).toBeGreaterThan(all.length * 0.8);
    expect(changed).toBeGreaterThan(20);
  });
});
