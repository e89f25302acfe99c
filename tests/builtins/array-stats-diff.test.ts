// Differential tests of the array reductions against the implementations they replaced (issue 18:
// the order statistics sort a scratch Float64Array instead of a comparator sort of a fresh copy,
// sort_indices orders numbers without a comparator, covariance keeps no copies). The references
// below are the previous code, kept verbatim; results must agree bit for bit (Object.is: -0 and
// +0 differ) on random and adversarial inputs.

import { describe, expect, it } from "vitest";
import { rng } from "../ta/random.js";
import { sortIndices } from "../../src/builtins/array/index.js";
import * as st from "../../src/builtins/array/stats.js";
import { PineArray } from "../../src/core/values.js";
import { callWith, makeCtx } from "./math-helpers/ctx.js";

const ctx = makeCtx();

// ---- references (the previous implementations) ----
function realValues(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && v != null) out.push(v);
  }
  return out;
}
const ref = {
  covariance(a: readonly number[], b: readonly number[], biased = true): number {
    if (a.length !== b.length) return NaN;
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x === x && y === y && x != null && y != null) {
        xs.push(x);
        ys.push(y);
      }
    }
    const n = xs.length;
    if (n === 0) return NaN;
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < n; i++) {
      sx += xs[i]!;
      sy += ys[i]!;
    }
    const mx = sx / n;
    const my = sy / n;
    let s = 0;
    for (let i = 0; i < n; i++) s += (xs[i]! - mx) * (ys[i]! - my);
    return biased ? s / n : s / (n - 1);
  },
  median(values: readonly number[]): number {
    const xs = realValues(values).sort((x, y) => x - y);
    const n = xs.length;
    if (n === 0) return NaN;
    const h = n >> 1;
    return n % 2 === 1 ? xs[h]! : (xs[h - 1]! + xs[h]!) / 2;
  },
  mode(values: readonly number[]): number {
    const xs = realValues(values).sort((x, y) => x - y);
    if (xs.length === 0) return NaN;
    let best = xs[0]!;
    let bestCount = 0;
    let i = 0;
    while (i < xs.length) {
      let j = i;
      while (j < xs.length && xs[j] === xs[i]) j++;
      if (j - i > bestCount) {
        bestCount = j - i;
        best = xs[i]!;
      }
      i = j;
    }
    return best;
  },
  nth(values: readonly number[], n: number, largest: boolean): number {
    const xs = realValues(values).sort((x, y) => (largest ? y - x : x - y));
    return n < xs.length ? xs[n]! : NaN;
  },
  range(values: readonly number[]): number {
    const xs = realValues(values);
    if (xs.length === 0) return NaN;
    let lo = xs[0]!;
    let hi = xs[0]!;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    return hi - lo;
  },
  sortedNaLast(values: readonly number[]): { sorted: number[]; hasNa: boolean } {
    const real = realValues(values).sort((x, y) => x - y);
    const hasNa = real.length < values.length;
    while (real.length < values.length) real.push(NaN);
    return { sorted: real, hasNa };
  },
  percentileNearestRank(values: readonly number[], p: number): number {
    const n = values.length;
    if (n === 0) return NaN;
    const { sorted } = ref.sortedNaLast(values);
    const rank = Math.ceil((p * n) / 100);
    return sorted[Math.min(n - 1, Math.max(0, rank - 1))]!;
  },
  percentileLinear(values: readonly number[], p: number): number {
    const n = values.length;
    if (n === 0) return NaN;
    const { sorted, hasNa } = ref.sortedNaLast(values);
    let pos = (p * n) / 100 - 0.5;
    if (pos < 0) pos = 0;
    if (pos > n - 1) pos = n - 1;
    const lo = Math.floor(pos);
    const f = pos - lo;
    if (f === 0) return sorted[lo]!;
    if (hasNa) return NaN;
    const a = sorted[lo]!;
    const b = sorted[lo + 1]!;
    return a + f * (b - a);
  },
  sortIndices(values: readonly unknown[], descending: boolean): number[] {
    const isNaNum = (v: unknown): boolean => v == null || (typeof v === "number" && v !== v);
    const ascending = (x: unknown, y: unknown): number => {
      const xn = isNaNum(x);
      const yn = isNaNum(y);
      if (xn || yn) return xn === yn ? 0 : xn ? 1 : -1;
      if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
      return (x as number) - (y as number) || 0;
    };
    const idx = values.map((_, i) => i);
    idx.sort((i, j) => ascending(values[i], values[j]) || i - j);
    if (descending) idx.reverse();
    return idx;
  },
};

// ---- inputs ----

const SPECIAL = [0, -0, NaN, null, 1, -1, 0.5, Infinity, -Infinity, 5e-324, -5e-324, 1e308, -1e308, 2, 2, 3];

/** Arrays of many shapes: empty, one element, ties, signed zeros, na (NaN and null), infinities, large. */
function cases(): number[][] {
  const r = rng(18);
  const out: number[][] = [[], [NaN], [null as unknown as number], [0], [-0], [-0, 0], [0, -0], [0, -0, 0, -0, -0]];
  out.push([NaN, NaN, 1], [1, null as unknown as number, -0, 0], [Infinity, -Infinity, Infinity, 0, -0]);
  for (let t = 0; t < 3000; t++) {
    const n = t < 2500 ? Math.floor(r() * 12) : Math.floor(r() * 400);
    const kind = t % 5;
    const a: number[] = [];
    for (let i = 0; i < n; i++) {
      const u = r();
      if (kind === 0) a.push(SPECIAL[Math.floor(u * SPECIAL.length)] as number);
      else if (kind === 1)
        a.push(Math.floor(u * 5) - 2 || (r() < 0.5 ? -0 : 0)); // many ties and both zeros
      else if (kind === 2) a.push(u < 0.1 ? NaN : (u - 0.5) * 1e3);
      else if (kind === 3) a.push(u < 0.05 ? (null as unknown as number) : Math.round(u * 100) / 10);
      else a.push(u);
    }
    out.push(a);
  }
  // inputs already in order (the no-sort path), zeros of both signs in input order among them
  for (let t = 0; t < 400; t++) {
    const a = out[20 + t]!.filter((x) => x === x && x != null).sort((x, y) => x - y);
    if (t % 3 === 0 && a.length > 0) a.splice(Math.floor(r() * a.length), 0, NaN); // na anywhere
    out.push(a);
  }
  out.push([-1, 0, -0, 0, 2], [-0, -0, 0], [0, -0], [1, 1, 1, 1]);
  const big: number[] = [];
  const r2 = rng(7);
  for (let i = 0; i < 100_000; i++) big.push(r2() < 0.01 ? NaN : Math.floor(r2() * 1000) - 500 || -0);
  out.push(big);
  return out;
}

const same = (got: unknown, want: unknown) => Object.is(got, want);
const PCTS = [0, 1, 10, 25, 33.3, 50, 70, 90, 99, 100];

describe("array reductions: bit-identical to the previous implementations", () => {
  const all = cases();

  it("median, mode, range", () => {
    for (const a of all) {
      for (const [name, fn, rf] of [
        ["median", st.median, ref.median],
        ["mode", st.mode, ref.mode],
        ["range", st.range, ref.range],
      ] as const) {
        const got = fn(a);
        const want = rf(a);
        if (!same(got, want)) expect({ name, a, got }).toEqual({ name, a, got: want });
      }
    }
  });

  it("nth largest and smallest at every rank", () => {
    for (const a of all) {
      if (a.length > 40) continue;
      for (let k = 0; k < a.length; k++) {
        for (const largest of [true, false]) {
          const got = st.nth(a, k, largest);
          const want = ref.nth(a, k, largest);
          if (!same(got, want)) expect({ a, k, largest, got }).toEqual({ a, k, largest, got: want });
        }
      }
    }
    const big = all[all.length - 1]!;
    for (const k of [1, 2, 500, 50_000, 98_999, 99_999])
      for (const largest of [true, false]) expect(same(st.nth(big, k, largest), ref.nth(big, k, largest))).toBe(true);
  });

  it("percentiles (nearest rank and linear interpolation)", () => {
    for (const a of all) {
      for (const p of PCTS) {
        const g1 = st.percentileNearestRank(a, p);
        const w1 = ref.percentileNearestRank(a, p);
        if (!same(g1, w1)) expect({ a, p, g1 }).toEqual({ a, p, g1: w1 });
        const g2 = st.percentileLinear(a, p);
        const w2 = ref.percentileLinear(a, p);
        if (!same(g2, w2)) expect({ a, p, g2 }).toEqual({ a, p, g2: w2 });
      }
    }
  });

  it("covariance over pairs with na on either side", () => {
    const r = rng(3);
    for (const a of all) {
      const b = a.map((x) => (r() < 0.1 ? NaN : r() < 0.05 ? (null as unknown as number) : x * (r() - 0.3)));
      for (const biased of [true, false]) {
        expect(same(st.covariance(a, b, biased), ref.covariance(a, b, biased))).toBe(true);
        expect(same(st.covariance(a, a, biased), ref.covariance(a, a, biased))).toBe(true);
      }
    }
    expect(same(st.covariance([1, 2], [1], true), ref.covariance([1, 2], [1], true))).toBe(true);
  });

  it("sort_indices keeps the stable order (ties by index, na last), numbers and others", () => {
    const more: unknown[][] = [
      ["b", "a", null, "a", "c"],
      [true, false, true],
      [1, "x", null],
      [null, null],
    ];
    for (const a of [...all, ...more]) {
      for (const desc of [false, true]) {
        const got = sortIndices(a, desc);
        const want = ref.sortIndices(a, desc);
        if (got.length !== want.length || got.some((x, i) => x !== want[i]))
          expect({ a, desc, got }).toEqual({ a, desc, got: want });
      }
    }
  });

  it("array.sort in place: the stable index order's permutation, values as they were (na kept as NaN or null)", () => {
    const more: unknown[][] = [
      ["b", "a", null, "a", "c"],
      [true, false, true],
      [1, "x", null],
      [null, NaN, null],
    ];
    for (const a of [...all, ...more]) {
      if (a.length > 5000) continue;
      for (const desc of [false, true]) {
        const order = ref.sortIndices(a, desc);
        const want = order.map((i) => a[i]);
        const got = callWith(ctx, "array.sort", [new PineArray("float", a.slice()), desc ? "descending" : "ascending"]);
        expect(got).toBeUndefined();
        const arr = new PineArray("float", a.slice());
        callWith(ctx, "array.sort", [arr, desc ? "descending" : "ascending"]);
        if (arr.values.length !== want.length || arr.values.some((x, i) => !Object.is(x, want[i])))
          expect({ a, desc, got: arr.values }).toEqual({ a, desc, got: want });
      }
    }
  });

  it("the same input again reuses the last order; a changed zero sign or element does not", () => {
    const a = [3, 0, -0, 1, NaN];
    expect(Object.is(st.nth(a, 1, false), -0)).toBe(true); // zeros in input order: 0, -0
    a[1] = -0;
    a[2] = 0;
    expect(Object.is(st.nth(a, 1, false), 0)).toBe(true);
    a[4] = null as unknown as number; // na either way: same order
    expect(Object.is(st.nth(a, 1, false), 0)).toBe(true);
    a[4] = -5;
    expect(st.nth(a, 0, false)).toBe(-5);
    expect(st.percentileNearestRank(a, 100)).toBe(3);
    a.push(7);
    expect(st.percentileNearestRank(a, 100)).toBe(7);
  });

  it("sortAscending sorts like the native numeric sort (random, ordered, reversed, equal, organ pipe, large)", () => {
    const r = rng(21);
    const shapes: ((i: number, n: number) => number)[] = [
      () => r() - 0.5,
      (i) => i,
      (i, n) => n - i,
      () => 7,
      (i, n) => (i < n / 2 ? i : n - i),
      () => Math.floor(r() * 4) - 2,
      () => SPECIAL.filter((x) => x === x && x != null)[Math.floor(r() * 13)] as number,
    ];
    for (const n of [0, 1, 2, 3, 16, 17, 18, 50, 300, 1000, 5000]) {
      for (const f of shapes) {
        const src = Float64Array.from({ length: n }, (_, i) => f(i, n));
        const got = src.slice();
        st.sortAscending(got, n);
        const want = src.slice().sort();
        // equal as numbers (the order among -0 and +0 is left open)
        expect(got.every((v, i) => v === want[i])).toBe(true);
      }
    }
  });

  it("sortAscending past its operation budget finishes with the native sort (taken, same result bit for bit)", () => {
    const r = rng(22);
    const shapes: ((i: number, n: number) => number)[] = [
      () => r() - 0.5,
      (i, n) => (i < n / 2 ? i : n - i),
      () => Math.floor(r() * 4) - 2,
      () => SPECIAL.filter((x) => x === x && x != null)[Math.floor(r() * 13)] as number,
    ];
    for (const n of [17, 18, 50, 300, 1000, 5000]) {
      for (const f of shapes) {
        const src = Float64Array.from({ length: n }, (_, i) => f(i, n));
        const want = src.slice().sort();
        // a budget of 64 steps (factor 0) runs out on the first partition of more than 64 elements;
        // factor 1 after some partitions are done
        for (const factor of n > 64 ? [0, 1] : [0]) {
          const got = src.slice();
          const before = st.sortFallbacks.count;
          st.sortAscending(got, n, factor);
          if (n > 64 && factor === 0) expect(st.sortFallbacks.count, `n ${n}`).toBe(before + 1);
          // the native sort of the whole array: equal bit for bit, -0 before +0 as it puts them
          if (st.sortFallbacks.count > before) expect(got.every((v, i) => Object.is(v, want[i]))).toBe(true);
          else expect(got.every((v, i) => v === want[i])).toBe(true);
        }
      }
    }
    // the default budget does not fall back on random input (the counter counts only fallbacks)
    const before = st.sortFallbacks.count;
    const a = Float64Array.from({ length: 5000 }, () => r());
    st.sortAscending(a, 5000);
    expect(st.sortFallbacks.count).toBe(before);
  });

  it("array.includes / indexof find what the closure search found (within 1e-10, never na)", () => {
    const looseEquals = (a: unknown, b: unknown): boolean => {
      if (typeof a === "number" && typeof b === "number") {
        if (a !== a || b !== b) return false;
        return a === b || Math.abs(a - b) <= 1e-10;
      }
      return a === b;
    };
    const probes: unknown[] = [0, -0, 1, 1 + 1e-11, 2, NaN, null, 0.5, "a", Infinity];
    for (const a of [...all.slice(0, 600), ["a", null, "b"], [true, false]] as unknown[][]) {
      for (const x of probes) {
        const arr = new PineArray("float", a.slice() as number[]);
        expect(callWith(ctx, "array.includes", [arr, x])).toBe(a.some((v) => looseEquals(v, x)));
        expect(callWith(ctx, "array.indexof", [arr, x])).toBe(a.findIndex((v) => looseEquals(v, x)));
      }
    }
  });

  it("a window slid along by one (push and shift, or a push) keeps the stable order, zeros' signs and na included", () => {
    // values from a small set, so equal values, zeros of both signs and na (NaN or null) meet often;
    // each step is a push and a shift, a push, a shift, or a value changed, and after each the
    // order statistics are compared with the comparator sort's (slideLast's cases, its refusals
    // and the full sort after them)
    const withNegZero = [1, 2, 2.5, 0, -0, -1, NaN, null as unknown as number, 3, 1e-300];
    const positiveZero = [1, 2, 2.5, 0, -1, NaN, null as unknown as number, 3, 1e-300, 2];
    const zeros = [0, -0, 0, 1, NaN, -1, 0, -0, 2, 0];
    const slides = st.sortSlides.count;
    for (const [seed, pool] of [
      [31, positiveZero],
      [32, positiveZero],
      [33, withNegZero],
      [34, withNegZero],
      [35, zeros],
      [36, zeros],
    ] as const) {
      const r = rng(seed);
      const pick = () => pool[Math.floor(r() * pool.length)]!;
      const window: number[] = [];
      for (let step = 0; step < 3000; step++) {
        const op = r();
        if (op < 0.6) {
          window.push(pick());
          if (window.length > 12) window.shift();
        } else if (op < 0.8) window.push(pick());
        else if (op < 0.9) window.shift();
        else if (window.length > 0) window[Math.floor(r() * window.length)] = pick();
        const got = Array.from(st.sortedReals(window));
        const want = realValues(window).sort((x, y) => x - y);
        expect(got.length).toBe(want.length);
        for (let i = 0; i < want.length; i++) expect(Object.is(got[i], want[i])).toBe(true);
        for (let k = 0; k < Math.min(3, want.length); k++)
          expect(Object.is(st.nth(window, k, true), ref.nth(window, k, true))).toBe(true);
        expect(Object.is(st.median(window), ref.median(window))).toBe(true);
      }
    }
    // (the slide taken on most steps without -0; with it mostly refused)
    expect(st.sortSlides.count - slides).toBeGreaterThan(3000);
  });

  it("windows sorted in turn keep their own memos (up to four), and a fifth evicts the least recently used", () => {
    const r = rng(41);
    for (const count of [2, 4, 5]) {
      const windows: number[][] = Array.from({ length: count }, () => []);
      const slides = st.sortSlides.count;
      for (let step = 0; step < 400; step++)
        for (const w of windows) {
          w.push(Math.round(r() * 40) / 4);
          if (w.length > 20) w.shift();
          const got = Array.from(st.sortedReals(w));
          const want = realValues(w).sort((x, y) => x - y);
          expect(got).toEqual(want);
          expect(st.median(w)).toBe(ref.median(w));
        }
      const slid = st.sortSlides.count - slides;
      // every sort after a window's first slides while the windows fit in the memos; five in turn
      // evict each other (least recently used), so only a window whose last values happen to be
      // another's slides
      if (count <= 4) expect(slid).toBe(count * 399);
      else expect(slid).toBeLessThan(count * 40);
    }
  });

  it("sorting after a larger array reuses the scratch safely", () => {
    const long = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    expect(st.median(long)).toBe(ref.median(long));
    expect(st.median([3, 1, 2])).toBe(2);
    expect(Object.is(st.median([0, -0, 5]), -0)).toBe(true); // the comparator sort keeps 0, -0 in input order
    expect(Object.is(st.median([-0, 0, 5]), 0)).toBe(true);
    expect(sortIndices([2, 1, 2, 1], false)).toEqual([1, 3, 0, 2]);
    expect(sortIndices([2, 1, 2, 1], true)).toEqual([2, 0, 3, 1]);
  });
});
