// Closures kept across runs of one program (src/interpret/memo.ts): a program's runs share its slot
// storage (pooled, reset per run) and the closures over it. Run after run of the same program (other
// bars, other inputs, a run stopped by an error, a timed-out run), the interpreter must give exactly
// what the compile backend (which keeps none) gives on the same bars, and the runs must really share
// closures (keptStats). Also random scripts, each run several times over bars of different lengths.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { keptStats } from "../../src/interpret/memo.js";
import type { OhlcvInput, RunOptions } from "../../src/core/result.js";
import { comparable, firstDifference } from "../compile/parity.js";
import { randomExpr as expr, randomScript } from "../helpers/random-script.js";

/** A loop-heavy indicator: user function with a loop over history, var state, if/else, break/continue, while, switch. */
const LOOPS = `//@version=6
indicator("kept loops")
boom = input.int(-1, "Boom")
len = input.int(12, "Len")
wavg(src, n) =>
    float den = 0.0
    float num = 0.0
    for i = 0 to n - 1
        w = n - i
        den += w
        num += src[i] * w
    num / den
dev(src, n) =>
    float m = 0.0
    for i = 0 to n - 1
        m += src[i]
    m := m / n
    float s = 0.0
    for i = 0 to n - 1
        d = src[i] - m
        s += d * d
    math.sqrt(s / n)
var float acc = 0.0
var int runs = 0
float mx = close
for i = 1 to len - 1
    if na(high[i])
        break
    mx := math.max(mx, high[i])
int ups = 0
for i = 0 to 9
    if close[i] > open[i]
        ups += 1
    else
        continue
int k = 0
float t = 0.0
while k < 5
    k += 1
    if k == 2
        continue
    t += close - nz(close[k])
x = switch bar_index % 3
    0 => close - open
    1 => high - low
    => -0.0
if bar_index == boom
    runtime.error("boom")
if close > open
    runs += 1
else
    runs := 0
acc := 0.9 * acc + 0.1 * (close - close[1])
plot(wavg(close, len), "wavg")
plot(dev(close, len), "dev")
plot(mx, "mx")
plot(ups, "ups")
plot(t, "t")
plot(x, "x")
plot(acc, "acc")
plot(runs, "runs")
`;

/** A per-bar indicator without loops: var state, crossovers, an array window, tuples. */
const STATE = `//@version=6
indicator("kept state")
len = input.int(8, "Window")
basis = ta.ema(close, 10)
up = ta.crossover(close, basis)
dn = ta.crossunder(close, basis)
var float[] moves = array.new_float()
var int trend = 0
var float crossPrice = na
var int streak = 0
array.push(moves, close - open)
if array.size(moves) > len
    array.shift(moves)
if up
    trend := 1
    crossPrice := close
    streak := 0
else if dn
    trend := -1
    crossPrice := close
    streak := 0
else
    streak += 1
pair(a, b) =>
    [a + b, a - b]
[s, d] = pair(close, open)
plot(array.avg(moves), "avg")
plot(trend, "trend")
plot(close - crossPrice, "from")
plot(streak, "streak")
plot(s * d, "sd")
`;

/**
 * Every other kind of expression and statement a kept closure covers (session 13): bar values and
 * builtin variables, column and expression histories at fixed and computed offsets, the ternary's
 * slot and constant shapes, UDT fields, value-returning while / for / for-in / switch, the written-out
 * ta.* steps (their state in the call site), math.max of two closures, casts, a user function called
 * as a statement (its body a void block) and for its value.
 */
const KINDS = `//@version=6
indicator("kept kinds")
len = input.int(9, "Len")
type Box
    float lo
    float hi
var Box bx = Box.new(low, high)
bx.lo := math.min(bx.lo, low)
bx.hi += 0.0
Box cp = bx.copy()
r = ta.tr
h2 = hl2
d = close[bar_index % 4] - open[2]
e = (close - open)[3]
m = ta.ema(close, len)
q = ta.rma(high - low, 5)
s = ta.sma(close - m, len)
cx = ta.crossover(close, m) ? 1 : 0
t1 = close > open ? high : low
t2 = close > open ? 1.0 : -1.0
t3 = close > m ? 2.0 : low
t4 = close > m ? high : -2.0
int k = 0
w = while k < 3
    k += 1
    k * close
f = for i = 0 to len % 4
    close[i] * i
arr = array.from(close, open, high)
fi = for x in arr
    x * 2
var map<string, float> mp = map.new<string, float>()
mp.put("c", close)
float tot = 0.0
for [key, v] in mp
    tot += v
sw = switch
    close > open => 1.0
    close < open => -1.0
    => 0.0
sw2 = switch bar_index % 3
    0 => high
    1 => low
    => close
mx = math.max(close - open, nz(close[1]) - open)
ci = int(close * 10)
trim(float[] a, float x) =>
    a.push(x)
    int j = 0
    while a.size() > len % 5 + 2
        a.shift()
        j += 1
var float[] win = array.new_float()
trim(win, close)
gone = trim(array.from(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0), close)
plot(bx.lo + cp.hi, "box")
plot(r + h2 + d + nz(e), "vals")
plot(m + q + nz(s) + cx, "ta")
plot(t1 + t2 + t3 + t4, "tern")
plot(w + f + fi + tot, "loops")
plot(sw + sw2 + mx + ci, "switch")
plot(win.avg() + nz(gone), "calls")
`;

async function compileRun(src: string, data: OhlcvInput, opts: RunOptions) {
  const r = await new Runtime().run(src, data, { ...opts, mode: "compile" });
  expect(r.mode).toBe("compile");
  return r;
}

describe("closures kept across runs", () => {
  for (const [name, src] of [
    ["loops", LOOPS],
    ["state", STATE],
    ["kinds", KINDS],
  ] as const) {
    it(`${name}: run after run on other bars and inputs, after an error and a timeout, equals compile`, async () => {
      const rt = new Runtime();
      const a = generateBars(400, 7),
        b = generateBars(257, 11);
      const runs: [OhlcvInput, RunOptions][] = [
        [a, {}],
        [a, {}],
        [b, {}],
        [a, { inputs: { Len: 5, Window: 3 } }],
        [b, { inputs: { Boom: 120 } }],
        [a, {}],
        [b, { inputs: { Len: 20, Window: 12 } }],
        [a, { inputs: { Boom: 3 } }],
        [b, {}],
      ];
      const reused0 = keptStats.reused;
      for (const [data, opts] of runs) {
        const got = await rt.run(src, data, { ...opts, mode: "interpret" });
        expect(got.mode).toBe("interpret");
        const want = await compileRun(src, data, opts);
        expect(firstDifference(comparable(got), comparable(want))).toBeNull();
      }
      if (name === "loops") {
        // the error runs stopped where the script says
        const err = await rt.run(src, b, { inputs: { Boom: 120 }, mode: "interpret" });
        expect(err.error).toContain("boom");
        expect(err.error_bar).toBe(120);
      }
      // a run stopped by its timeout inside the bar loop, then a full one
      await rt.run(src, generateBars(200_000, 3), { mode: "interpret", timeoutSeconds: 0.02 });
      const after = await rt.run(src, a, { mode: "interpret" });
      expect(firstDifference(comparable(after), comparable(await compileRun(src, a, {})))).toBeNull();
      expect(keptStats.reused).toBeGreaterThan(reused0);
    }, 60_000);
  }

  it("a strategy, realtime ticks and request.security secondary runs, run after run, equal compile", async () => {
    const fs = await import("node:fs");
    const strategy = fs.readFileSync(new URL("../../bench/ema_atr_stop.pine", import.meta.url), "utf8");
    const M = 60_000;
    const wave = (n: number, step: number, phase: number) =>
      Array.from({ length: n }, (_, i) => {
        const c = 100 + 10 * Math.sin((i + phase) / 7) + (i % 5) * 0.25;
        return {
          time: Date.UTC(2024, 0, 1) + i * step,
          open: c - 0.5,
          high: c + 1.25,
          low: c - 1.5,
          close: c,
          volume: 100 + i,
        };
      });
    const chart = wave(240, 60 * M, 0);
    const feed = { "NASDAQ:AAPL|240": wave(60, 240 * M, 3) };
    const security = `//@version=6
indicator("sec")
a = request.security(syminfo.tickerid, "240", ta.sma(close, 3) + nz(close[1]))
var float s = 0.0
for i = 0 to 3
    s += nz(a[i])
plot(a, "a")
plot(s, "s")
`;
    const rt = new Runtime("NASDAQ:AAPL", { timeframe: "60" });
    for (let round = 0; round < 3; round++) {
      for (const [src, data, opts] of [
        [strategy, generateBars(500 + round * 50, round + 1), {}],
        [LOOPS, chart, { realtimeBars: 4, realtimeTicks: 3 }],
        [STATE, chart, { realtimeBars: 5, realtimeTicks: 2 }],
        [security, chart, { dataFeed: feed }],
      ] as [string, OhlcvInput, RunOptions][]) {
        const got = await rt.run(src, data, { ...opts, mode: "interpret" });
        expect(got.mode).toBe("interpret");
        const want = await new Runtime("NASDAQ:AAPL", { timeframe: "60" }).run(src, data, { ...opts, mode: "compile" });
        expect(firstDifference(comparable(got), comparable(want)), src.slice(0, 40)).toBeNull();
      }
    }
  }, 60_000);

  it("a program's second run makes only its chunks, the runs after it no closure: every statement is kept", async () => {
    const fs = await import("node:fs");
    const strategy = fs.readFileSync(new URL("../../bench/ema_cross_bracket.pine", import.meta.url), "utf8");
    // (fewer top-level statements than a program needs to run in chunks: Compiler.main)
    const SHORT = `//@version=6\nindicator("short")\nx = ta.sma(close, 5)\nplot(x - nz(x[1]), "d")\n`;
    for (const src of [SHORT, LOOPS, STATE, KINDS, strategy]) {
      const rt = new Runtime();
      const data = generateBars(300, 5);
      await rt.run(src, data, { mode: "interpret" });
      // the second run makes only a long program's chunks (5-7 for these; none on a first run), no
      // statement's closure (each of these has dozens)
      const before = keptStats.made;
      await rt.run(src, data, { mode: "interpret" });
      if (src === SHORT) expect(keptStats.made - before).toBe(0);
      else expect(keptStats.made - before, src.slice(0, 40)).toBeLessThanOrEqual(8);
      const made = keptStats.made,
        unkept = keptStats.unkeptTop;
      const again = await rt.run(src, generateBars(200, 6), { mode: "interpret" });
      expect(again.error, src.slice(0, 40)).toBeUndefined();
      expect(keptStats.made - made, src.slice(0, 40)).toBe(0);
      expect(keptStats.unkeptTop - unkept, src.slice(0, 40)).toBe(0);
    }
  });

  it("a compiled run between interpreted ones hands the storage back: the next interpreted run makes no closure", async () => {
    const fs = await import("node:fs");
    const strategy = fs.readFileSync(new URL("../../bench/ema_cross_bracket.pine", import.meta.url), "utf8");
    for (const src of [LOOPS, STATE, strategy]) {
      // one runtime in either mode, as a caller comparing the backends in one process runs them
      const rt = new Runtime();
      const data = generateBars(300, 5);
      for (let i = 0; i < 3; i++) await rt.run(src, data, { mode: "interpret" });
      const want = await rt.run(src, data, { mode: "interpret" });
      for (let i = 0; i < 2; i++) {
        const compiled = await rt.run(src, data, { mode: "compile" });
        expect(compiled.mode).toBe("compile");
        const made = keptStats.made;
        const got = await rt.run(src, data, { mode: "interpret" });
        // (the compiled run kept the program's storage before: every interpreted run after one made
        // all its closures again, 2-3x its CPU time)
        expect(keptStats.made - made, src.slice(0, 40)).toBe(0);
        expect(firstDifference(comparable(got), comparable(want))).toBeNull();
        expect(firstDifference(comparable(compiled), comparable(want))).toBeNull();
      }
    }
  });

  it("a later run starts from na: var state, histories and arrays of the earlier run do not leak", async () => {
    const rt = new Runtime();
    const data = syntheticBars(50);
    const first = await rt.run(STATE, data, { mode: "interpret" });
    for (let i = 0; i < 3; i++) {
      const again = await rt.run(STATE, data, { mode: "interpret" });
      expect(firstDifference(comparable(again), comparable(first))).toBeNull();
    }
  });
});

const statement = fc.oneof(
  fc.tuple(fc.constantFrom("a", "b", "c"), expr(3)).map(([v, e]) => `${v} := -${e}`),
  fc
    .tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("+=", "-=", "*="), expr(2))
    .map(([v, o, e]) => `${v} ${o} ${e}`),
  fc
    .tuple(expr(2), fc.constantFrom("a", "b"), expr(3), expr(2))
    .map(([c, v, e, x]) => `if ${c} > 0\n    ${v} := ${e}\nelse\n    ${v} := ${x}`),
  fc
    .tuple(fc.integer({ min: 0, max: 5 }), expr(2), fc.constantFrom("break", "continue"), expr(2))
    .map(
      ([n, e, k, x]) => `for i = 0 to ${n}\n    w = ${x}\n    if i * ${e} > 3\n        ${k}\n    c := c + i * nz(w)`,
    ),
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), expr(2))
    .map(([n, e]) => `for i = 0 to ${n}\n    c += nz(close[i]) * i\n    b := b - ${e}`),
);
const script = fc.array(statement, { minLength: 1, maxLength: 6 }).map(randomScript);

describe("random scripts run again and again", () => {
  it("each run over bars of another length equals compile", async () => {
    const lengths = [90, 60, 90, 130];
    await fc.assert(
      fc.asyncProperty(script, async (src) => {
        const rt = new Runtime();
        for (const n of lengths) {
          const data = syntheticBars(n);
          const got = await rt.run(src, data, { mode: "interpret" });
          if (got.error_kind === "check") return; // an ill-typed draw
          const want = await new Runtime().run(src, data, { mode: "compile" });
          expect(firstDifference(comparable(got), comparable(want)), src).toBeNull();
        }
      }),
      { numRuns: 60, seed: 20261129 },
    );
  }, 120_000);
});
