// Randomized bit-for-bit checks of the whole-series passes (assembly/series*.ts) against the per-bar
// state machines the ta.* builtins drive (the interpreter's numbers): inputs with na runs (leading,
// in the middle, trailing), infinities, huge and tiny values, repeated values, -0 next to +0, values
// whose sums round (so a seed summed without compensation shows), sizes 0..300, lengths 1..n+3.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKernels, type Kernels } from "../../src/kernels/index.js";
import * as S from "../../src/kernels/series.js";
import { newRun, setBar, type Columns, type Sites } from "../ta/harness.js";

/** Object.is on every value, any NaN equal to any NaN (na has no sign or payload in Pine). */
function sameBits(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const a = got[i]!,
      b = want[i]!;
    if (!Object.is(a, b) && !(a !== a && b !== b)) expect.fail(`${what}: index ${i}: ${a} vs ${b}`);
  }
}

const scalar: fc.Arbitrary<number> = fc.oneof(
  // prices on a grid: ties in every window
  { weight: 6, arbitrary: fc.integer({ min: -40, max: 40 }).map((k) => 100 + k / 4) },
  // decimal steps whose running and seed sums round (0.1 + 0.2 != 0.3)
  { weight: 4, arbitrary: fc.integer({ min: -300, max: 300 }).map((k) => k * 0.1 + 0.01) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 1, -1) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(Infinity, -Infinity, 1e300, -1e300, 1e16, -1e16, 5e-324, 1e-11, -1e-11, 2 ** 53 + 2),
  },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
);

/** n values with up to four na runs placed anywhere (start 0: leading; reaching n: trailing). */
const seriesOf = (n: number): fc.Arbitrary<Float64Array> =>
  fc
    .tuple(
      fc.array(scalar, { minLength: n, maxLength: n }),
      fc.array(fc.tuple(fc.nat(Math.max(n, 1)), fc.integer({ min: 1, max: 12 })), { maxLength: 4 }),
    )
    .map(([vals, runs]) => {
      const x = Float64Array.from(vals);
      for (const [at, len] of runs) x.fill(NaN, at, at + len);
      return x;
    });

interface Input {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  len: number;
}

/** Three columns of one size 0..300 (small sizes often) and a length 1..n+3 (short ones often). */
const input: fc.Arbitrary<Input> = fc
  .oneof(
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 300 }) },
  )
  .chain((n) =>
    fc.record({
      x: seriesOf(n),
      y: seriesOf(n),
      z: seriesOf(n),
      len: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: n + 3 })),
    }),
  );

/** x as open/high, y as low, z as close (ta.atr reads the bar's high, low, close). */
function bars(c: Input): Columns {
  const n = c.x.length;
  return {
    time: Float64Array.from({ length: n }, (_, i) => 1_700_000_000_000 + i * 60_000),
    open: c.x,
    high: c.x,
    low: c.y,
    close: c.z,
    volume: new Float64Array(n),
  };
}

/** The state machines' outputs bar by bar (one call site per output group). */
async function perBar(c: Input, outs: number, f: (s: Sites, i: number) => number | number[]): Promise<Float64Array[]> {
  const s = await newRun(bars(c));
  const n = c.x.length;
  const res = Array.from({ length: outs }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    setBar(s.ctx, i);
    const v = f(s, i);
    if (typeof v === "number") res[0]![i] = v;
    else for (let j = 0; j < outs; j++) res[j]![i] = v[j]!;
  }
  return res;
}

interface Case {
  name: string;
  outs: number;
  got(k: Kernels, c: Input): Float64Array[];
  want(s: Sites, i: number, c: Input): number | number[];
}

const b = (v: unknown): number => (v ? 1 : 0);

const cases: Case[] = [
  {
    name: "sma",
    outs: 1,
    got: (k, c) => [S.seriesSma(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "sma", c.x[i], c.len),
  },
  {
    name: "ema",
    outs: 1,
    got: (k, c) => [S.seriesEma(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "ema", c.x[i], c.len),
  },
  {
    name: "rma",
    outs: 1,
    got: (k, c) => [S.seriesRma(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "rma", c.x[i], c.len),
  },
  {
    name: "wma",
    outs: 1,
    got: (k, c) => [S.seriesWma(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "wma", c.x[i], c.len),
  },
  {
    name: "stdev",
    outs: 1,
    got: (k, c) => [S.seriesStdev(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "stdev", c.x[i], c.len),
  },
  {
    name: "stdev (unbiased)",
    outs: 1,
    got: (k, c) => [S.seriesStdev(k, c.x, c.len, false)],
    want: (s, i, c) => s.f("a", "stdev", c.x[i], c.len, false),
  },
  {
    name: "rsi",
    outs: 1,
    got: (k, c) => [S.seriesRsi(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "rsi", c.x[i], c.len),
  },
  {
    name: "atr",
    outs: 1,
    got: (k, c) => [S.seriesAtr(k, c.x, c.y, c.z, c.len)],
    want: (s, _i, c) => s.f("a", "atr", c.len),
  },
  {
    name: "highest",
    outs: 1,
    got: (k, c) => [S.seriesHighest(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "highest", c.x[i], c.len),
  },
  {
    name: "lowest",
    outs: 1,
    got: (k, c) => [S.seriesLowest(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "lowest", c.x[i], c.len),
  },
  {
    name: "highestbars",
    outs: 1,
    got: (k, c) => [S.seriesHighestBars(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "highestbars", c.x[i], c.len),
  },
  {
    name: "lowestbars",
    outs: 1,
    got: (k, c) => [S.seriesLowestBars(k, c.x, c.len)],
    want: (s, i, c) => s.f("a", "lowestbars", c.x[i], c.len),
  },
  {
    name: "stoch",
    outs: 1,
    got: (k, c) => [S.seriesStoch(k, c.z, c.x, c.y, c.len)],
    want: (s, i, c) => s.f("a", "stoch", c.z[i], c.x[i], c.y[i], c.len),
  },
  {
    name: "macd",
    outs: 3,
    got: (k, c) => S.seriesMacd(k, c.x, c.len, c.len + 3, Math.max(1, c.len >> 1)),
    want: (s, i, c) => s.f("a", "macd", c.x[i], c.len, c.len + 3, Math.max(1, c.len >> 1)),
  },
  {
    name: "macd (slow shorter than fast)",
    outs: 3,
    got: (k, c) => S.seriesMacd(k, c.x, c.len + 2, Math.max(1, c.len - 1), c.len),
    want: (s, i, c) => s.f("a", "macd", c.x[i], c.len + 2, Math.max(1, c.len - 1), c.len),
  },
  {
    name: "bb",
    outs: 3,
    got: (k, c) => S.seriesBb(k, c.x, c.len, 2),
    want: (s, i, c) => s.f("a", "bb", c.x[i], c.len, 2),
  },
  {
    name: "bb (negative mult)",
    outs: 3,
    got: (k, c) => S.seriesBb(k, c.x, c.len, -0.5),
    want: (s, i, c) => s.f("a", "bb", c.x[i], c.len, -0.5),
  },
  {
    name: "cross",
    outs: 1,
    got: (k, c) => [S.seriesCross(k, c.x, c.y, 0)],
    want: (s, i, c) => b(s.f("a", "cross", c.x[i], c.y[i])),
  },
  {
    name: "crossover",
    outs: 1,
    got: (k, c) => [S.seriesCross(k, c.x, c.y, 1)],
    want: (s, i, c) => b(s.f("a", "crossover", c.x[i], c.y[i])),
  },
  {
    name: "crossunder",
    outs: 1,
    got: (k, c) => [S.seriesCross(k, c.x, c.y, 2)],
    want: (s, i, c) => b(s.f("a", "crossunder", c.x[i], c.y[i])),
  },
];

/** Variants of an input that reach the na-free paths (fused stoch, the block extremes from bar 0,
 * the windows read in place), where two columns cross often, and where zeros of both signs tie. */
function variants(c: Input): Input[] {
  const clean = (a: Float64Array) => a.map((v) => (v !== v ? 0 : v));
  const noNa = { ...c, x: clean(c.x), y: clean(c.y), z: clean(c.z) };
  // y close to x: crossings and ties between the two columns
  const near = { ...c, y: c.x.map((v, i) => (i % 3 === 0 ? v : v + (i % 2 ? 0.25 : -0.25))) };
  // mostly zeros of both signs: which of tied extremes is kept shows in the sign of a zero or an
  // infinity downstream (stoch's x - lowest and highest - lowest)
  const zeros = (a: Float64Array, salt: number) =>
    a.map((v, i) => (v !== v ? v : [0, -0, 1, 0.5, -0, 0][(i * 7 + salt + Math.abs(Math.round(v))) % 6]!));
  const signed = { ...c, x: zeros(noNa.x, 1), y: zeros(noNa.y, 2), z: zeros(c.z, 3) };
  return [c, noNa, near, signed];
}

describe("whole-series kernels, randomized against the state machines", () => {
  for (const cs of cases) {
    it(`${cs.name}: same bits for every input`, async () => {
      const k = await createKernels();
      await fc.assert(
        fc.asyncProperty(input, async (c0) => {
          for (const c of variants(c0)) {
            const want = await perBar(c, cs.outs, (s, i) => cs.want(s, i, c));
            const got = cs.got(k, c);
            for (let j = 0; j < cs.outs; j++)
              sameBits(got[j]!, want[j]!, `${cs.name} output ${j} (n ${c.x.length}, length ${c.len})`);
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it("bb counts deviations at 1e-10 and the doubles next to it as the state machine does", async () => {
    const k = await createKernels();
    const e = 1e-10;
    const step = (x: number, ulps: number): number => {
      const f = new Float64Array([x]);
      const u = new BigInt64Array(f.buffer);
      u[0]! += BigInt(ulps);
      return f[0]!;
    };
    // the premise of the kernel's test on d * d instead of |d|: squaring 1e-10's next double rounds above 1e-10 squared
    expect(step(e, 1) * step(e, 1) > e * e).toBe(true);
    const near = [e, step(e, 1), step(e, -1), step(e, 2), e / 2, 2 * e];
    // windows of [v, -v] have basis 0 and deviations of exactly +-v
    const x = Float64Array.from(near.flatMap((v) => [v, -v, v, -v]));
    for (const len of [2, 3, 4]) {
      for (const mult of [1, -2]) {
        const c: Input = { x, y: x, z: x, len };
        const want = await perBar(c, 3, (s, i) => s.f("a", "bb", x[i], len, mult));
        const got = S.seriesBb(k, x, len, mult);
        for (let j = 0; j < 3; j++) sameBits(got[j]!, want[j]!, `bb ${len} ${mult} output ${j}`);
      }
    }
    // the case is meaningful: a window of +-1e-10 has width 0, one of the next double's has not
    const [mid, up] = S.seriesBb(k, x, 2, 1);
    expect(up![1]).toBe(mid![1]);
    expect(up![5]).toBeGreaterThan(mid![5]!);
  });

  it("highest/lowest keep the oldest of values that tie, 0 and -0 included, with and without na", async () => {
    const k = await createKernels();
    for (const x of [
      Float64Array.from([-0, 0, -1, 0, -0, -2, -0]),
      Float64Array.from([NaN, 0, -0, 0, NaN, -0, 0, 0]),
    ]) {
      for (const len of [1, 2, 3, 4]) {
        const c: Input = { x, y: x, z: x, len };
        for (const name of ["highest", "lowest", "highestbars", "lowestbars"]) {
          const cs = cases.find((q) => q.name === name)!;
          sameBits(cs.got(k, c)[0]!, (await perBar(c, 1, (s, i) => cs.want(s, i, c)))[0]!, `${name} ${len}`);
        }
      }
    }
    // the case is meaningful: the window [-0, 0] reads -0 (the older), [0, -0] reads 0
    expect(Object.is(S.seriesHighest(k, Float64Array.from([-0, 0]), 2)[1], -0)).toBe(true);
    expect(Object.is(S.seriesHighest(k, Float64Array.from([0, -0]), 2)[1], 0)).toBe(true);
  });
});
