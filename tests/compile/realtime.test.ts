// Realtime bars in the compile backend (issue 18): a run with realtime options compiles the
// re-runnable variant of the loop (codegen.ts `generate(.., rerun)`), runs the historical bars in it
// and each realtime bar's ticks through its bar body, opened, rolled back between ticks and closed by
// the interpreter's own code (src/runtime/rerun.ts FormingBar). Every case runs in both modes under
// every realtime option and requires the same result to the last field (plots, logs, events, trades,
// alerts, drawings) and a run that really compiled (tests/helpers/run-both.ts runModes); a few values
// are worked out by hand so that agreeing on a wrong answer fails too. A sweep runs every strategy
// of the repository's test sets on realtime bars with calc_on_every_tick and calc_on_order_fills on.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import type { Bar, RunOptions, RunResult } from "../../src/core/result.js";
import { runModes } from "../helpers/run-both.js";
import { FILL_PATH } from "../helpers/hourly-bars.js";
import { repositoryStrategies } from "../helpers/strategies.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { comparable, firstDifference, program } from "./parity.js";
import { generatedSource } from "../../src/compile/index.js";

const N = 60;
const data: Bar[] = syntheticBars(N);

/** The realtime options of service.md 1.4, alone and combined. */
const OPTIONS: RunOptions[] = [
  { realtimeLastBar: true },
  { realtimeTicks: 5 },
  { realtimeBars: 3, realtimeTicks: 4 },
  { realtimeFromBar: N - 10, realtimeTicks: 2 },
  { realtimeFromBar: 1, realtimeTicks: 3 },
];

const v6 = (body: string, decl = 'indicator("rt")') => `//@version=6\n${decl}\n${body}\n`;

/** The script in both modes under every realtime option; the results by option. */
async function everyOption(src: string, bars: Bar[] = data, rt = new Runtime("CHART", {})): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (const opts of OPTIONS) {
    const r = await runModes(rt, src, bars, opts);
    expect(r.error, `${JSON.stringify(opts)}: ${r.error}`).toBeUndefined();
    out.push(r);
  }
  return out;
}

describe("realtime bars compile", () => {
  it("auto runs them compiled, with no fallback reason", async () => {
    const rt = new Runtime("CHART", {});
    for (const opts of OPTIONS) {
      const r = await rt.run(v6("plot(close)"), data, { mode: "auto", ...opts });
      expect(r.mode, JSON.stringify(opts)).toBe("compile");
      expect(r.auto_backend).toBe("compile");
      expect(r.compile_fallback_reason).toBeUndefined();
    }
  });

  it("var is rolled back before every tick, varip keeps every tick, barstate says which tick", async () => {
    const src = v6(`var int bars = 0
bars += 1
varip int ticks = 0
ticks += 1
varip int unconfirmed = 0
if barstate.isrealtime and not barstate.isconfirmed
    unconfirmed += 1
plot(bars, "bars")
plot(ticks, "ticks")
plot(unconfirmed, "unconfirmed")
plot(barstate.isrealtime ? 1 : 0, "rt")
plot(barstate.isnew ? 1 : 0, "new")
plot(barstate.islast ? 1 : 0, "last")
plot(close, "close")
plot(volume, "volume")
if barstate.isrealtime
    log.info("tick close={0} confirmed={1} bars={2} ticks={3}", close, barstate.isconfirmed, bars, ticks)`);
    const [lastBar, ticks5, bars3] = await everyOption(src);
    // realtimeLastBar alone: one tick on the last bar
    expect(lastBar!.series.bars![N - 1]).toBe(N);
    expect(lastBar!.series.ticks![N - 1]).toBe(N);
    // 5 ticks on the last bar: four extra executions counted by varip only
    expect(ticks5!.series.bars![N - 1]).toBe(N);
    expect(ticks5!.series.ticks![N - 1]).toBe(N + 4);
    expect(ticks5!.series.unconfirmed![N - 1]).toBe(4);
    expect(ticks5!.logs.filter((l) => l.bar_index === N - 1)).toHaveLength(5);
    // 3 bars of 4 ticks: 3 extra executions on each
    expect(bars3!.series.ticks![N - 1]).toBe(N + 9);
    expect(bars3!.series.rt!.slice(N - 4)).toEqual([0, 1, 1, 1]);
    // the committed bar is the whole bar: its close and volume are the data's
    expect(bars3!.series.close![N - 1]).toBe(data[N - 1]!.close);
    expect(bars3!.series.volume![N - 1]).toBe(data[N - 1]!.volume);
  });

  it("history, ta.* state and user functions (locals, var inside) are rolled back between ticks", async () => {
    const src = v6(`f(x) =>
    var float acc = 0.0
    float d = x - nz(x[1])
    acc += d
    acc
float e = ta.ema(close, 5)
float r = ta.rsi(close, 7)
var float s = 0.0
s := s + close - nz(s[1]) * 0.1
plot(e, "ema")
plot(r, "rsi")
plot(s, "s")
plot(s[2], "s2")
plot(f(close), "f")
plot(ta.cum(volume), "cum")
plot(ta.highest(high, 4), "hh")`);
    const runs = await everyOption(src);
    // whatever the ticks did, the committed values are the all-history run's
    const hist = await runModes(new Runtime("CHART", {}), src, data);
    for (const r of runs)
      for (const k of ["ema", "rsi", "s", "s2", "f", "cum", "hh"]) expect(r.series[k]).toEqual(hist.series[k]);
  });

  it("arrays, maps, matrices and UDT objects mutated per tick (varip fields keep theirs)", async () => {
    const src = v6(`type C
    int n = 0
    varip int seen = 0
var a = array.new<float>()
a.push(close)
var m = map.new<int, float>()
m.put(bar_index % 5, close)
var mx = matrix.new<float>(0, 2)
mx.add_row(mx.rows(), array.from(close, volume))
var c = C.new()
c.n += 1
c.seen += 1
plot(a.size(), "a")
plot(a.sum(), "sum")
plot(m.size(), "m")
plot(mx.rows(), "rows")
plot(c.n, "n")
plot(c.seen, "seen")`);
    const [, ticks5] = await everyOption(src);
    expect(ticks5!.series.a![N - 1]).toBe(N);
    expect(ticks5!.series.rows![N - 1]).toBe(N);
    expect(ticks5!.series.n![N - 1]).toBe(N);
    expect(ticks5!.series.seen![N - 1]).toBe(N + 4);
  });

  it("drawings and alerts made on ticks", async () => {
    const src = v6(
      `var label lb = na
if barstate.isrealtime
    label.new(bar_index, high, str.tostring(close))
    alert("tick " + str.tostring(close), alert.freq_all)
    alert("once " + str.tostring(close), alert.freq_once_per_bar)
    alert("close " + str.tostring(close), alert.freq_once_per_bar_close)
if barstate.islast
    lb := label.new(bar_index, low, "last")
    line.new(bar_index - 5, low, bar_index, high)
    box.new(bar_index - 3, high, bar_index, low)
alertcondition(close > open, "up", "up")
plot(close)`,
      'indicator("rt", overlay = true, max_labels_count = 500)',
    );
    const [, ticks5, bars3] = await everyOption(src);
    // a rolled-back label does not stay: one per realtime bar, plus the "last" one of each realtime bar
    // (barstate.islast holds on every realtime bar)
    expect(ticks5!.drawings.filter((d) => d.type === "label")).toHaveLength(2);
    expect(bars3!.drawings.filter((d) => d.type === "label")).toHaveLength(6);
    // freq_all fires on every tick, once_per_bar once per bar, once_per_bar_close on the closing tick
    expect(ticks5!.alerts.filter((a) => a.message.startsWith("tick"))).toHaveLength(5);
    expect(ticks5!.alerts.filter((a) => a.message.startsWith("once"))).toHaveLength(1);
    expect(ticks5!.alerts.filter((a) => a.message.startsWith("close"))).toHaveLength(1);
  });

  it("a strategy: orders on the closing tick, or on every tick with calc_on_every_tick", async () => {
    const body = `float fast = ta.sma(close, 3)
float slow = ta.sma(close, 8)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.close("L")
if barstate.isrealtime
    strategy.entry("T", strategy.long, qty = 1)
    strategy.exit("TX", "T", stop = close * 0.99, limit = close * 1.01)
varip int runs = 0
runs += 1
plot(runs, "runs")
plot(strategy.position_size, "pos")`;
    for (const decl of [
      'strategy("s", pyramiding = 3)',
      'strategy("s", pyramiding = 3, calc_on_every_tick = true)',
      'strategy("s", pyramiding = 3, calc_on_order_fills = true)',
      'strategy("s", pyramiding = 3, calc_on_order_fills = true, calc_on_every_tick = true)',
    ]) {
      const runs = await everyOption(v6(body, decl));
      expect(
        runs.some((r) => r.strategy!.trades.length + r.strategy!.open_trades.length > 0),
        decl,
      ).toBe(true);
    }
  });

  it("calc_on_order_fills on a realtime bar re-runs the compiled body after its fills (the manual's path)", async () => {
    // bar 1 (100 -> 95 -> 110 -> 105) as a realtime bar: the market order of bar 0 fills at its open and
    // the script runs again there, as on a historical bar, then the closing tick runs
    const src = `//@version=6
strategy("s", calc_on_order_fills = true, pyramiding = 100)
if bar_index <= 1
    strategy.entry("Buy", strategy.long)
varip int execs = 0
execs += 1
plot(execs, "execs")
`;
    for (const opts of [{ realtimeFromBar: 1 }, { realtimeFromBar: 1, realtimeTicks: 4 }]) {
      const rt = new Runtime("CHART", {});
      const r = await runModes(rt, src, FILL_PATH, opts);
      const h = await runModes(rt, src, FILL_PATH);
      // one tick per bar: the same trades as the historical run
      if (!("realtimeTicks" in opts)) expect(r.strategy).toEqual(h.strategy);
      expect(r.series.execs![3]).toBeGreaterThan(4);
    }
  });

  it("a runtime error on a realtime tick stops both backends on the same bar and line", async () => {
    const src = v6(`plot(close)
if barstate.isrealtime and not barstate.isconfirmed
    runtime.error("tick failed")`);
    const r = await runModes(new Runtime("CHART", {}), src, data, { realtimeTicks: 3 });
    expect(r.error).toBe("tick failed");
    expect(r.error_bar).toBe(N - 1);
  });

  it("request.security on realtime bars", async () => {
    const src = v6(`float d = request.security(syminfo.tickerid, "5", close)
float h = request.security(syminfo.tickerid, "5", ta.highest(high, 3))
plot(d, "d")
plot(h, "h")`);
    const runs = await everyOption(src);
    expect(runs.every((r) => typeof r.series.d![N - 1] === "number")).toBe(true);
  });

  it("the first bar itself realtime, several ticks: plots and inputs are declared once, the bar commits whole", async () => {
    // (found with these tests, in both backends: the first tick's plot and input registrations, being
    // call-site state, were rolled back with it, so every tick declared them again: "c", "c_2", "c_3")
    const src = v6(`x = input.int(3, "X")
p1 = plot(close, "c")
plotshape(close > open, "s")
hline(100, "h")
p2 = plot(open, "o")
fill(p1, p2, color.red, "f")
bgcolor(color.new(color.red, 90), title = "bg")
plotcandle(open, high, low, close, "k")
var int bars = 0
bars += 1
plot(bars, "bars")`);
    const r = await runModes(new Runtime("CHART", {}), src, data, { realtimeFromBar: 0, realtimeTicks: 3 });
    expect(Object.keys(r.series)).toEqual(["c", "s", "h", "o", "f", "bg", "k", "bars"]);
    expect(r.inputs).toHaveLength(1);
    expect(r.series.c!.slice(0, 3)).toEqual(data.slice(0, 3).map((b) => b.close));
    expect(r.series.bars![N - 1]).toBe(N);
    const h = await runModes(new Runtime("CHART", {}), src, data);
    expect(r.series).toEqual(h.series);
  });
});

describe("every strategy of the test sets on realtime bars, ticks filled and re-run after fills, gives the same result in both modes", () => {
  const bars = randomWalkBars(300, { seed: 12 });
  // calc_on_every_tick: the broker fills tick by tick; calc_on_order_fills: the compiled body runs
  // again after fills, inside ticks too
  const rt = new Runtime("CHART", {
    timeframe: "60",
    broker: { calc_on_order_fills: true, calc_on_every_tick: true },
  });
  const opts: RunOptions = { realtimeBars: 5, realtimeTicks: 3 };
  const all = repositoryStrategies();
  let ran = 0;
  let changed = 0;
  it("has the strategies", () => expect(all.length).toBeGreaterThan(150));
  for (const [name, src] of all) {
    it(name, async () => {
      const i = await rt.run(src, bars, { ...opts, mode: "interpret" });
      const c = await rt.run(src, bars, { ...opts, mode: "compile" });
      expect(c.mode, c.compile_fallback_reason).toBe("compile");
      expect(firstDifference(comparable(i), comparable(c))).toBeNull();
      if (!i.error) ran++;
      const history = await rt.run(src, bars, { mode: "interpret" });
      if (firstDifference(comparable(history).strategy, comparable(i).strategy) !== null) changed++;
    });
  }
  it("most run, and the ticks change the trades of many (orders fill inside the realtime bars)", () => {
    expect(ran).toBeGreaterThan(all.length * 0.8);
    expect(changed).toBeGreaterThan(20);
  });
});

describe("the re-runnable loop's locals", () => {
  it("go to the state array before every bar open only when fill re-runs are installed, else when the loop returns", () => {
    const text = generatedSource(program('//@version=6\nstrategy("s")\nx = close * 2\nplot(x)\n'), false, true);
    expect(text).toContain("const fills = ctx.ext.fillRecalc !== undefined;");
    expect(text).toMatch(/if \(broker !== null\) \{ if \(fills\) \{ N\[\d+\] = s\d+; \} broker\.onBarOpen\(ctx\); \}/);
    expect(text).toMatch(/\n {2}N\[\d+\] = s\d+;\n {2}return bar;/);
  });
});
