// `color.new(x, t)` with a constant transparency t runs through a generated copy
// (fused.generated.ts colorAlphaCopy): t's alpha byte computed once, x's red, green and blue kept
// in place. It must give the bits colorNew gives (the general direct call, taken when t is a
// variable): each transparency (fractions, out of range, 0 and 100), na colours, x a colour variable
// or any expression, in values and in plot colours; on first and kept runs, as compile.
import { describe, expect, it } from "vitest";
import { shapeCopyBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

const data = bars(40);

describe("color.new with a constant transparency (colorAlphaCopy)", () => {
  const transps = ["0", "25", "33.3", "50.5", "99.9", "100", "-5", "150", "1e9"];

  it("each transparency on a colour variable and on an expression gives the general call's bits", async () => {
    const lines = [
      "color c = bar_index % 5 == 0 ? na : bar_index % 2 == 0 ? color.rgb(12, 200, 77, 40) : color.rgb(255, 0, 129)",
      "float tv = 0",
    ];
    transps.forEach((t, i) => {
      lines.push(
        `tv := ${t}`,
        // the constant form against the general one (a variable transparency), bit for bit
        `color a${i} = color.new(c, ${t})`,
        `color g${i} = color.new(c, tv)`,
        `plot(na(a${i}) ? -1 : a${i} == g${i} ? 1 : 0, "same${i}")`,
        `plot(color.t(a${i}) * 1000 + color.r(a${i}), "t${i}")`,
        `color e${i} = color.new(close > open ? c : color.blue, ${t})`,
        `plot(close, "p${i}", color = e${i})`,
      );
    });
    const src = v6(lines.join("\n"));
    const before = shapeCopyBuilds.color;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    // (-5 is a negation of a literal, not a constant to the interpreter: the general call)
    expect(shapeCopyBuilds.color - before).toBe(2 * (transps.length - 1));
    transps.forEach((_, i) => {
      expect(r.series[`same${i}`]).toEqual(data.map((_, b) => (b % 5 === 0 ? -1 : 1)));
    });
    // (transparency as colorNew clamps and rounds it)
    expect(r.series.t0![2]).toBe(40 * 0 + 12);
    expect(r.series.t5![1]).toBe(100 * 1000 + 255);
    expect(r.series.t6![1]).toBe(255);
    await keptRunsMatchCompile(src, data);
  });

  it("an na transparency or a colour constant keeps the general call", async () => {
    const src = v6(`color c = bar_index % 2 == 0 ? color.red : na
color a = color.new(c, na)
plot(close, "a", color = a)
plot(na(a) ? -1 : color.t(a), "t")`);
    const before = shapeCopyBuilds.color;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(shapeCopyBuilds.color - before).toBe(0);
    expect(r.series.t).toEqual(data.map((_, b) => (b % 2 === 0 ? 0 : -1)));
  });
});
