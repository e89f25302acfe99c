// Unit behaviour of the ta.* builtins: na inputs, length 1, windows longer than the data, series
// lengths changing bar to bar, several call sites, repeated and skipped calls, argument errors.
import { describe, expect, it } from "vitest";
import { newRun, setBar, type Sites } from "./harness.js";
import { randomBars } from "./random.js";
import * as ref from "./reference/series.js";

const b = randomBars(60, 5);

async function run(f: (s: Sites, i: number) => unknown, n = b.close.length): Promise<unknown[]> {
  const s = await newRun(b);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    setBar(s.ctx, i);
    out.push(f(s, i));
  }
  return out;
}

describe("na handling", () => {
  it("sma/ema/rma skip na values: an na bar keeps the sma, ema/rma are na there", async () => {
    const x = [1, NaN, 3, NaN, NaN, 5, 7];
    expect(await run((s, i) => s.f("a", "sma", x[i], 2), 7)).toEqual([NaN, NaN, 2, 2, 2, 4, 6]);
    expect(await run((s, i) => s.f("a", "ema", x[i], 2), 7)).toEqual([
      NaN,
      NaN,
      2,
      NaN,
      NaN,
      2 + (2 / 3) * 3,
      4 + (2 / 3) * 3,
    ]);
    expect(await run((s, i) => s.f("a", "rma", x[i], 2), 7)).toEqual([NaN, NaN, 2, NaN, NaN, 3.5, 5.25]);
  });
  it("wma carries the last value over na bars; change/mom/roc/swma/alma propagate na", async () => {
    const x = [1, NaN, 3, 4, NaN];
    // the na bar is na; in later windows it reads as the last value
    expect(await run((s, i) => s.f("a", "wma", x[i], 2), 5)).toEqual([NaN, NaN, (2 * 3 + 1) / 3, (2 * 4 + 3) / 3, NaN]);
    expect(await run((s, i) => s.f("a", "change", x[i]), 5)).toEqual([NaN, NaN, NaN, 1, NaN]);
    expect(await run((s, i) => s.f("a", "mom", x[i], 1), 5)).toEqual([NaN, NaN, NaN, 1, NaN]);
    expect(await run((s, i) => s.f("a", "roc", x[i], 1), 5)).toEqual([NaN, NaN, NaN, 100 / 3, NaN]);
    expect((await run((s, i) => s.f("a", "swma", [1, 2, NaN, 4, 5, 6, 7][i]), 7)).map((v) => Number.isNaN(v))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });
  it("highest/lowest look only at the bars after the last na; an na bar is na (0 for *bars)", async () => {
    const x = [NaN, 2, NaN, 1, NaN, NaN];
    expect(await run((s, i) => s.f("a", "highest", x[i], 2), 6)).toEqual([NaN, 2, NaN, 1, NaN, NaN]);
    expect(await run((s, i) => s.f("a", "lowestbars", x[i], 3), 6)).toEqual([NaN, NaN, 0, 0, 0, 0]);
  });
  it("ta.max/ta.min skip na, ta.cum is na on an na bar; barssince is na before the first true", async () => {
    const x = [NaN, 3, NaN, 1, 5];
    expect(await run((s, i) => s.f("a", "max", x[i]), 5)).toEqual([NaN, 3, 3, 3, 5]);
    expect(await run((s, i) => s.f("a", "min", x[i]), 5)).toEqual([NaN, 3, 3, 1, 1]);
    expect(await run((s, i) => s.f("a", "cum", x[i]), 5)).toEqual([NaN, 3, NaN, 4, 9]);
    expect(await run((s, i) => s.f("a", "barssince", [false, true, false, false, true][i]), 5)).toEqual([
      NaN,
      0,
      1,
      2,
      0,
    ]);
  });
  it("crossings need both bars defined", async () => {
    const a = [NaN, 1, 3, 1];
    expect(await run((s, i) => s.f("a", "crossover", a[i], 2), 4)).toEqual([false, false, true, false]);
    expect(await run((s, i) => s.f("a", "cross", a[i], 2), 4)).toEqual([false, false, true, true]);
  });
});

describe("lengths", () => {
  it("length 1 is the value itself (or na-free stats)", async () => {
    const c = b.close;
    const got = await run((s, i) => [
      s.f("a", "sma", c[i], 1),
      s.f("b", "ema", c[i], 1),
      s.f("c", "wma", c[i], 1),
      s.f("d", "highest", c[i], 1),
      s.f("e", "median", c[i], 1),
      s.f("f", "stdev", c[i], 1),
    ]);
    got.forEach((r, i) => {
      expect(r).toEqual([c[i], c[i], c[i], c[i], c[i], 0]);
    });
  });
  it("a window longer than the data gives na on every bar", async () => {
    const got = await run((s, i) => [
      s.f("a", "sma", b.close[i], 100),
      s.f("b", "highest", 100),
      s.f("c", "percentrank", b.close[i], 100),
      s.f("d", "median", b.close[i], 100),
    ]);
    for (const r of got) expect(r).toEqual([NaN, NaN, NaN, NaN]);
  });
  it("series lengths may change from bar to bar (window of the current length)", async () => {
    const lens = b.close.map((_, i) => 1 + (i % 7));
    const c = b.close;
    const sums = await run((s, i) => s.f("a", "sma", c[i], lens[i]));
    const hi = await run((s, i) => s.f("b", "highest", c[i], lens[i]));
    const med = await run((s, i) => s.f("c", "median", c[i], lens[i]));
    const w = await run((s, i) => s.f("d", "wma", c[i], lens[i]));
    for (let i = 0; i < c.length; i++) {
      const L = lens[i];
      // the length changes every bar, so every bar re-sums its window
      expect(sums[i]).toBe(ref.smaFresh(c.slice(0, i + 1), L)[i]);
      expect(hi[i]).toBe(ref.hilo(c.slice(0, i + 1), L, 0)[i]);
      expect(med[i]).toBe(ref.median(c.slice(0, i + 1), L)[i]);
      expect(w[i]).toBe(ref.wma(c.slice(0, i + 1), L)[i]);
    }
  });
  it("a growing length (cumulative average) keeps all history", async () => {
    const got = await run((s, i) => s.f("a", "sma", b.close[i], i + 1));
    got.forEach((v, i) => {
      expect(v).toBe(ref.smaFresh(b.close.slice(0, i + 1), i + 1)[i]);
    });
  });
  it("invalid lengths raise TradingView's runtime error", async () => {
    await expect(run((s, i) => s.f("a", "sma", b.close[i], 0), 1)).rejects.toThrow(
      /'length' argument \(0\) in the 'sma' function. It must be > 0/,
    );
    await expect(run((s, i) => s.f("a", "ema", b.close[i], -3), 1)).rejects.toThrow(/must be > 0/);
    await expect(run((s, i) => s.f("a", "highest", b.close[i], NaN), 1)).rejects.toThrow(/'highest'/);
    await expect(run((s) => s.f("a", "valuewhen", true, 1, -1), 1)).rejects.toThrow(/occurrence/);
    await expect(run((s, i) => s.f("a", "percentile_nearest_rank", b.close[i], 5, 101), 1)).rejects.toThrow(
      /percentage/,
    );
  });
});

describe("call sites", () => {
  it("two call sites keep independent states", async () => {
    const got = await run((s, i) => [s.f("a", "ema", b.close[i], 5), s.f("b", "ema", b.open[i], 5)]);
    const ea = ref.ema(b.close, 5);
    const eb = ref.ema(b.open, 5);
    got.forEach((r, i) => {
      expect(r).toEqual([ea[i], eb[i]]);
    });
  });
  it("a call site called several times on one bar keeps the last call (TradingView's loop rule)", async () => {
    // for i = 1 to 3: v := ta.ema(close * i, 5)  ==  ta.ema(close * 3, 5)
    const got = await run((s, i) => {
      let v = NaN;
      for (let k = 1; k <= 3; k++) v = s.f("a", "ema", b.close[i] * k, 5);
      return v;
    });
    const want = ref.ema(
      b.close.map((c) => c * 3),
      5,
    );
    got.forEach((v, i) => {
      expect(v).toBe(want[i]);
    });
    for (const name of ["sma", "highest", "median", "wma", "stdev"]) {
      const rep = await run((s, i) => {
        let v = NaN;
        for (let k = 3; k >= 1; k--) v = s.f("a", name, b.close[i] * k, 4);
        return v;
      });
      const one = await run((s, i) => s.f("a", name, b.close[i], 4));
      expect(rep).toEqual(one);
    }
  });
  it("a call skipped on a bar does not update its state", async () => {
    const got = await run((s, i) => (i % 4 === 3 ? s.f("a", "ema", b.close[i], 3) : NaN));
    const taken = b.close.filter((_, i) => i % 4 === 3);
    const want = ref.ema(taken, 3);
    expect(got.filter((_, i) => i % 4 === 3)).toEqual(Array.from(want));
  });
});

describe("forms and overloads", () => {
  it("one-argument highest/lowest/pivots read high/low", async () => {
    const got = await run((s) => [
      s.f("a", "highest", 3),
      s.f("b", "lowest", 3),
      s.f("c", "pivothigh", 2, 1),
      s.f("d", "pivotlow", 2, 1),
    ]);
    const hh = ref.hilo(b.high, 3, 0);
    const ll = ref.hilo(b.low, 3, 1);
    const ph = ref.pivot(b.high, 2, 1, true);
    const pl = ref.pivot(b.low, 2, 1, false);
    got.forEach((r, i) => {
      expect(r).toEqual([hh[i], ll[i], ph[i], pl[i]]);
    });
  });
  it("change of a bool is true when it differs from the previous bar", async () => {
    const x = [true, true, false, false, true];
    // v6: a bool's history before the first bar reads false, so a true first bar is a change
    expect(await run((s, i) => s.f("a", "change", x[i]), 5)).toEqual([true, false, true, false, true]);
    expect(await run((s, i) => s.f("a", "change", x[i], 2), 5)).toEqual([true, true, true, true, true]);
  });
  it("valuewhen keeps strings and bools, and numbers through the kernel", async () => {
    const cond = [true, false, true, true, false];
    const str = ["a", "b", "c", "d", "e"];
    expect(await run((s, i) => s.f("a", "valuewhen", cond[i], str[i], 1), 5)).toEqual([null, null, "a", "c", "c"]);
    expect(await run((s, i) => s.f("a", "valuewhen", cond[i], i % 2 === 0, 0), 5)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(await run((s, i) => s.f("a", "valuewhen", cond[i], i * 10, 0), 5)).toEqual([0, 0, 20, 30, 30]);
  });
  it("pivot_point_levels returns a new 11-level array per call", async () => {
    const anchor = (i: number) => i % 10 === 0;
    const copies: number[][] = [];
    const got = await run((s, i) => {
      const a = s.f("a", "pivot_point_levels", "Traditional", anchor(i));
      copies.push(a.values.slice());
      return a;
    });
    expect(got[15]).not.toBe(got[16]);
    expect(copies[5].every((v) => Number.isNaN(v))).toBe(true);
    const arr = copies[25];
    expect(arr).toHaveLength(11);
    const hh = Math.max(...b.high.slice(10, 20));
    const ll = Math.min(...b.low.slice(10, 20));
    expect(arr[0]).toBeCloseTo((hh + ll + b.close[19]) / 3, 12);
  });
});

describe("history for series lengths", () => {
  it("a length that grows after a long constant run still reads its full window", async () => {
    // length 2 for 20 bars, 3 once, then 40: TradingView reads the last 40 values as soon as the
    // length is 40, so the values from before the change must still be there (bar 45: bars 6..45)
    const len = (i: number) => (i < 20 ? 2 : i === 20 ? 3 : 40);
    const got = await run((s, i) => s.f("a", "sma", b.close[i], len(i)));
    const hi = await run((s, i) => s.f("a", "highest", b.close[i], len(i)));
    const med = await run((s, i) => s.f("a", "median", b.close[i], len(i)));
    const full = ref.sma(b.close, 40);
    for (let i = 21; i < 60; i++) {
      // re-summed at bar 21 over bars 0..21 oldest first, then rolling: the same additions as a
      // running sum started at bar 0
      if (i < 39) expect(got[i]).toBeNaN();
      else expect(got[i]).toBe(full[i]);
      expect(hi[i]).toBe(ref.hilo(b.close.slice(0, i + 1), 40, 0)[i]);
      expect(med[i]).toEqual(ref.median(b.close.slice(0, i + 1), 40)[i]);
    }
  });
});

describe("argument layouts", () => {
  it("ta.highest(length=n) named into the length slot is the one-argument form", async () => {
    const a = await run((s) => s.f("a", "highest", undefined, 4));
    const b2 = await run((s) => s.f("b", "highest", 4));
    expect(a).toEqual(b2);
    expect(a).toEqual(Array.from(ref.hilo(b.high, 4, 0)));
  });
});

describe("pivots", () => {
  it("of a plateau of equal highs, the newest bar is the pivot", async () => {
    const x = [1, 2, 5, 5, 3, 1, 0, 0];
    // args in the catalogue's union order [leftbars, rightbars, source], as the checker passes them
    const got = await run((s, i) => s.f("a", "pivothigh", 2, 2, x[i]), x.length);
    // bar 2 (the first 5) has an equal value on its right: not a pivot; bar 3 may tie on its left,
    // confirmed on bar 5
    expect(got).toEqual([NaN, NaN, NaN, NaN, NaN, 5, NaN, NaN]);
    const lows = await run((s, i) => s.f("a", "pivotlow", 2, 2, -x[i]), x.length);
    expect(lows).toEqual([NaN, NaN, NaN, NaN, NaN, -5, NaN, NaN]);
  });
});

describe("without kernels", () => {
  it("a ta call reports a runtime error instead of crashing", async () => {
    const s = await newRun(b);
    s.ctx.kernels = null;
    setBar(s.ctx, 0);
    expect(() => s.f("a", "sma", 1, 2)).toThrow(/need the WebAssembly kernels/);
  });
});
