// normalizeBars' fast paths (columns used without a copy, one fused check pass, rows checked while
// they are read) against a plain bar-by-bar reading of the rules in bars.ts: the same first bad bar
// and the same message in every input shape, the same columns otherwise, and the spacing that lets
// barsTimeframe skip inferTimeframe's pass.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  barsTimeframe,
  inferTimeframe,
  isBarDataError,
  normalizeBars,
  type BarColumns,
  type BarDataError,
} from "../../src/core/bars.js";

type Raw = unknown;
interface RawBar {
  time: Raw;
  open: Raw;
  high: Raw;
  low: Raw;
  close: Raw;
  volume?: Raw;
}
const PRICES = ["open", "high", "low", "close"] as const;

/** How bars.ts words a raw value in a message. */
function describeRaw(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v);
}

/** The value a raw cell stands for (numbers, numeric strings; anything else here is NaN). */
function num(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "") return Number(v);
  return NaN;
}

/** The rules, one bar at a time, in the order bars.ts documents them. */
function reference(bars: RawBar[]): BarDataError | null {
  let prev = NaN;
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i]!;
    const t = num(b.time);
    if (!Number.isFinite(t))
      return {
        error: `bar ${i}: time is ${describeRaw(b.time)} (expected a finite number of ms since the epoch)`,
        bar: i,
      };
    for (const f of PRICES) {
      if (!Number.isFinite(num(b[f])))
        return { error: `bar ${i}: ${f} is ${describeRaw(b[f])} (expected a finite number)`, bar: i };
    }
    if (i > 0 && !(t > prev))
      return { error: `bar ${i}: time ${t} does not increase (previous bar's time is ${prev})`, bar: i };
    if (num(b.high) < num(b.low)) return { error: `bar ${i}: high ${num(b.high)} is below low ${num(b.low)}`, bar: i };
    prev = t;
  }
  return null;
}

const column = (bars: RawBar[], f: keyof RawBar) => bars.map((b) => b[f]);
const asColumns = (bars: RawBar[]) => ({
  time: column(bars, "time"),
  open: column(bars, "open"),
  high: column(bars, "high"),
  low: column(bars, "low"),
  close: column(bars, "close"),
  volume: column(bars, "volume"),
});
const allNumbers = (bars: RawBar[]) =>
  bars.every((b) => ["time", ...PRICES, "volume"].every((f) => typeof b[f as keyof RawBar] === "number"));
const asFloat64 = (bars: RawBar[]) => {
  const c = asColumns(bars);
  return {
    time: Float64Array.from(c.time as number[]),
    open: Float64Array.from(c.open as number[]),
    high: Float64Array.from(c.high as number[]),
    low: Float64Array.from(c.low as number[]),
    close: Float64Array.from(c.close as number[]),
    volume: Float64Array.from(c.volume as number[]),
  };
};

/** Valid bars (increasing times, high >= low), mostly evenly spaced, then a few cells spoilt. */
const barsArb = fc
  .record({
    n: fc.integer({ min: 0, max: 9 }),
    step: fc.constantFrom(1000, 60_000, 86_400_000),
    jitter: fc.array(fc.constantFrom(0, 0, 0, 1, -1, 5), { minLength: 9, maxLength: 9 }),
    prices: fc.array(fc.double({ min: 1, max: 100, noNaN: true }), { minLength: 36, maxLength: 36 }),
    spoil: fc.array(
      fc.record({
        bar: fc.nat(8),
        field: fc.constantFrom("time", "open", "high", "low", "close", "volume"),
        value: fc.constantFrom<Raw>(NaN, Infinity, -Infinity, null, undefined, "x", "7", " ", 0, -5, 1e300, true),
      }),
      { maxLength: 2 },
    ),
  })
  .map(({ n, step, jitter, prices, spoil }) => {
    const bars: RawBar[] = [];
    let t = 1_700_000_000_000;
    for (let i = 0; i < n; i++) {
      t += step + jitter[i]! * 1000;
      const a = prices[i * 4]!,
        b = prices[i * 4 + 1]!;
      bars.push({
        time: t,
        open: a,
        high: Math.max(a, b) + prices[i * 4 + 2]!,
        low: Math.min(a, b) - prices[i * 4 + 2]! / 200,
        close: b,
        volume: prices[i * 4 + 3]!,
      });
    }
    for (const s of spoil) if (s.bar < n) (bars[s.bar] as unknown as Record<string, Raw>)[s.field] = s.value;
    return bars;
  });

function spacingOf(t: Float64Array): number {
  if (t.length < 2) return NaN;
  const d = t[1]! - t[0]!;
  for (let i = 2; i < t.length; i++) if (t[i]! - t[i - 1]! !== d) return NaN;
  return d;
}

function expectSame(got: BarColumns | BarDataError, want: BarDataError | null, bars: RawBar[]): void {
  if (want) {
    expect(isBarDataError(got) ? got : "no error").toEqual(want);
    return;
  }
  if (isBarDataError(got)) throw new Error(got.error);
  expect(got.length).toBe(bars.length);
  for (const f of ["time", ...PRICES] as const) expect(Array.from(got[f])).toEqual(bars.map((b) => num(b[f])));
  expect(Array.from(got.volume)).toEqual(
    bars.map((b) => (b.volume === null || b.volume === undefined ? NaN : num(b.volume))),
  );
  expect(got.spacing).toEqual(spacingOf(got.time));
  expect(barsTimeframe(got)).toBe(inferTimeframe(got.time));
}

describe("normalizeBars fast paths agree with the bar-by-bar rules", () => {
  it("rows, plain columns and Float64Array columns: same first bad bar, same message, same values", () => {
    fc.assert(
      fc.property(barsArb, (bars) => {
        const want = reference(bars);
        expectSame(normalizeBars(bars), want, bars);
        expectSame(normalizeBars(asColumns(bars)), want, bars);
        if (allNumbers(bars)) expectSame(normalizeBars(asFloat64(bars)), want, bars);
      }),
      { numRuns: 3000 },
    );
  });

  it("every kind of bad bar, in every shape", () => {
    const good = (i: number): RawBar => ({ time: 1000 * (i + 1), open: 10, high: 11, low: 9, close: 10.5, volume: 1 });
    const kinds: [string, Partial<RawBar>][] = [
      ["time NaN", { time: NaN }],
      ["time Infinity", { time: Infinity }],
      ["time missing", { time: undefined }],
      ["time not increasing", { time: 1000 }],
      ["open NaN", { open: NaN }],
      ["high -Infinity", { high: -Infinity }],
      ["low null", { low: null }],
      ["close text", { close: "x" }],
      ["high below low", { high: 8 }],
      ["two faults: the first rule wins", { time: 500, open: NaN }],
    ];
    for (const [name, fault] of kinds) {
      for (const at of [0, 1, 4]) {
        if (name === "time not increasing" && at === 0) continue; // bar 0 has no previous bar
        const bars = [0, 1, 2, 3, 4].map(good);
        bars[at] = { ...bars[at]!, ...fault };
        const want = reference(bars);
        expect(want, name).not.toBeNull();
        expectSame(normalizeBars(bars), want, bars);
        expectSame(normalizeBars(asColumns(bars)), want, bars);
        if (allNumbers(bars)) expectSame(normalizeBars(asFloat64(bars)), want, bars);
      }
    }
    // a row that is not an object, after a bad bar and before one
    expect(normalizeBars([good(0), { ...good(1), open: NaN }, null])).toMatchObject({
      bar: 1,
      error: expect.stringMatching(/open is NaN/),
    });
    expect(normalizeBars([good(0), 7, { ...good(2), open: NaN }])).toMatchObject({
      bar: 1,
      error: expect.stringMatching(/expected an object/),
    });
  });
});

describe("columns without a copy", () => {
  const f64 = () => ({
    time: Float64Array.of(1000, 2000, 3000),
    open: Float64Array.of(1, 2, 3),
    high: Float64Array.of(2, 3, 4),
    low: Float64Array.of(0, 1, 2),
    close: Float64Array.of(1, 2, 3),
    volume: Float64Array.of(5, 6, 7),
  });
  it("uses Float64Array columns as they are and copies every other kind", () => {
    const input = f64();
    const c = normalizeBars(input) as BarColumns;
    for (const k of ["time", "open", "high", "low", "close", "volume"] as const) expect(c[k]).toBe(input[k]);
    const mixed = { ...input, close: Float32Array.of(1, 2, 3), open: [1, 2, 3] };
    const m = normalizeBars(mixed) as BarColumns;
    expect(m.close).not.toBe(mixed.close);
    expect(m.close).toBeInstanceOf(Float64Array);
    expect(m.time).toBe(input.time);
  });
  it("copies a shared buffer and an array only dressed as a Float64Array", () => {
    const shared = new Float64Array(new SharedArrayBuffer(24));
    shared.set([1000, 2000, 3000]);
    const a = normalizeBars({ ...f64(), time: shared }) as BarColumns;
    expect(a.time).not.toBe(shared);
    expect(Array.from(a.time)).toEqual([1000, 2000, 3000]);
    const fake = Int32Array.of(1, 2, 3);
    Object.setPrototypeOf(fake, Float64Array.prototype);
    const b = normalizeBars({ ...f64(), open: fake }) as BarColumns;
    expect(b.open).not.toBe(fake);
    expect(Array.from(b.open)).toEqual([1, 2, 3]);
  });
  it("spacing: evenly spaced bars only", () => {
    expect((normalizeBars(f64()) as BarColumns).spacing).toBe(1000);
    const uneven = { ...f64(), time: Float64Array.of(1000, 2000, 4000) };
    expect((normalizeBars(uneven) as BarColumns).spacing).toBeNaN();
    const one = { time: [5], open: [1], high: [1], low: [1], close: [1] };
    expect((normalizeBars(one) as BarColumns).spacing).toBeNaN();
    expect(barsTimeframe(normalizeBars(one) as BarColumns)).toBe("D");
  });
});

describe("inferTimeframe counts runs of equal gaps", () => {
  /** The most common positive gap counted one gap at a time (smallest of equally common ones), named as inferTimeframe names it. */
  function mostCommonGap(t: number[]): number {
    const counts = new Map<number, number>();
    for (let i = 1; i < t.length; i++) {
      const d = t[i]! - t[i - 1]!;
      if (d > 0 && Number.isFinite(d)) counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    let best = 0;
    let bestCount = 0;
    for (const [d, c] of counts) if (c > bestCount || (c === bestCount && d < best)) [best, bestCount] = [d, c];
    return best;
  }
  it("names the gap a one-by-one count finds most common (gaps in runs, ties, bad gaps)", () => {
    const gap = fc.constantFrom(
      60_000,
      60_000,
      300_000,
      3_600_000,
      86_400_000,
      2 * 86_400_000,
      0,
      -60_000,
      NaN,
      30_000,
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(gap, fc.integer({ min: 1, max: 6 })), { maxLength: 12 }), (runs) => {
        const t = [1_700_000_000_000];
        for (const [d, k] of runs) for (let j = 0; j < k; j++) t.push(t[t.length - 1]! + d);
        const want = inferTimeframe([0, mostCommonGap(t)]);
        expect(inferTimeframe(t)).toBe(mostCommonGap(t) === 0 ? "D" : want);
        expect(inferTimeframe(Float64Array.from(t))).toBe(inferTimeframe(t));
      }),
      { numRuns: 2000 },
    );
  });
});
