// TradingView's own outputs for ties and na holes in ta.highest/lowest(+bars) and ta.pivothigh/low.
// The tables are TradingView's values on two periodic series (one value per k = bar_index % period,
// every period alike), as extracted from TradingView and published with LuxAlgo/PineTS
// (tests/namespaces/ta/tie-handling.test.ts, na-window-semantics.test.ts). They settle:
//  - highestbars/lowestbars report the oldest of equal extremes;
//  - a pivot may equal a bar on its left but must be strictly beyond every bar on its right (of
//    equal values the newest is the pivot);
//  - highest/lowest(+bars) only look at the bars since the most recent na; on an na bar they give
//    na (highest/lowest) and 0 (highestbars/lowestbars);
//  - a pivot scan stops at the first na on either side; an na candidate is never a pivot.
// Here the scripts run through the Runtime in both modes; the first period is warm-up.
import { describe, it } from "vitest";
import { fromCloses, plots, same } from "./script.js";

type Table = Record<string, (number | "na")[]>;

async function byK(
  pattern: number[],
  holes: number[],
  calls: Record<string, string>,
): Promise<Record<string, number[]>> {
  const period = pattern.length;
  const arr = pattern.map((v) => v.toFixed(1)).join(", ");
  const hole = holes.length ? holes.map((h) => `k == ${h}`).join(" or ") : "false";
  const body = [
    `var float[] pat = array.from(${arr})`,
    `k = bar_index % ${period}`,
    `float src = ${hole} ? na : array.get(pat, k)`,
    ...Object.entries(calls).map(([name, call]) => `plot(${call}, "${name}")`),
  ].join("\n");
  const p = await plots(body, fromCloses(Array.from({ length: 4 * period }, () => 100)));
  const out: Record<string, number[]> = {};
  for (const name of Object.keys(calls)) {
    const col = new Array<number>(period);
    // the last period: every lookback is warm
    for (let i = 3 * period; i < 4 * period; i++) col[i % period] = p[name][i] + 0;
    out[name] = col;
  }
  return out;
}

const want = (t: Table, name: string): number[] => t[name].map((v) => (v === "na" ? NaN : v));

describe("ties", () => {
  // period 28
  const PATTERN = [1, 2, 7, 4, 7, 3, 2, 3, 3, 5, 9, 6, 4, 3, 9, 8, 2, 5, 2, 6, 7, 8, 6, 1, 5, 7, 8, 8];
  const TV: Table = {
    ph: [
      "na",
      8,
      "na",
      "na",
      "na",
      "na",
      7,
      "na",
      "na",
      "na",
      "na",
      "na",
      9,
      "na",
      "na",
      "na",
      9,
      "na",
      "na",
      "na",
      "na",
      "na",
      "na",
      8,
      "na",
      "na",
      "na",
      "na",
    ],
    pl: [
      "na",
      "na",
      1,
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      "na",
      "na",
      3,
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
      "na",
    ],
    ph11: [
      8,
      "na",
      "na",
      7,
      "na",
      7,
      "na",
      "na",
      "na",
      "na",
      "na",
      9,
      "na",
      "na",
      "na",
      9,
      "na",
      "na",
      5,
      "na",
      "na",
      "na",
      8,
      "na",
      "na",
      "na",
      "na",
      "na",
    ],
    pl11: [
      "na",
      1,
      "na",
      "na",
      4,
      "na",
      "na",
      2,
      "na",
      3,
      "na",
      "na",
      "na",
      "na",
      3,
      "na",
      "na",
      2,
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
      "na",
      "na",
    ],
    hb5: [-2, -3, -4, -4, -2, -3, -4, -3, -4, 0, 0, -1, -2, -3, -4, -1, -2, -3, -4, -4, 0, 0, -1, -2, -3, -4, 0, -1],
    lb5: [0, -1, -2, -3, -4, -4, 0, -1, -2, -3, -4, -4, -4, 0, -1, -2, 0, -1, -2, -3, -4, -3, -4, 0, -1, -2, -3, -4],
    hb3: [-2, -2, 0, -1, -2, -1, -2, -2, -1, 0, 0, -1, -2, -2, 0, -1, -2, -2, -1, 0, 0, 0, -1, -2, -2, 0, 0, -1],
    lb3: [0, -1, -2, -2, -1, 0, 0, -1, -2, -2, -2, -2, 0, 0, -1, -2, 0, -1, -2, -1, -2, -2, 0, 0, -1, -2, -2, -2],
  };
  it("pivots: a left tie is allowed, a right tie is not; highestbars/lowestbars: the oldest of ties", async () => {
    const got = await byK(PATTERN, [], {
      ph: "ta.pivothigh(src, 2, 2)",
      pl: "ta.pivotlow(src, 2, 2)",
      ph11: "ta.pivothigh(src, 1, 1)",
      pl11: "ta.pivotlow(src, 1, 1)",
      hb5: "ta.highestbars(src, 5)",
      lb5: "ta.lowestbars(src, 5)",
      hb3: "ta.highestbars(src, 3)",
      lb3: "ta.lowestbars(src, 3)",
    });
    for (const name of Object.keys(TV)) same(got[name], want(TV, name));
  });
});

describe("na holes", () => {
  // period 32, na at k = 4, 9, 13, 17, 21, 22, 29 (the pattern's 0 there is never read)
  const PATTERN = [1, 2, 7, 4, 0, 9, 3, 2, 8, 0, 9, 6, 1, 0, 0, 3, 6, 0, 4, 3, 2, 0, 0, 6, 8, 7, 2, 1, 10, 0, 9, 5];
  const HOLES = [4, 9, 13, 17, 21, 22, 29];
  const TV: Table = {
    ph: [
      9,
      "na",
      "na",
      "na",
      7,
      "na",
      "na",
      9,
      "na",
      "na",
      8,
      "na",
      9,
      "na",
      "na",
      "na",
      "na",
      "na",
      6,
      "na",
      4,
      "na",
      "na",
      "na",
      "na",
      "na",
      8,
      "na",
      "na",
      "na",
      10,
      "na",
    ],
    pl: [
      "na",
      "na",
      1,
      "na",
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
      0,
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      6,
      "na",
      "na",
      "na",
      1,
      "na",
      "na",
    ],
    ph11: [
      "na",
      "na",
      "na",
      7,
      "na",
      "na",
      9,
      "na",
      "na",
      8,
      "na",
      9,
      "na",
      "na",
      "na",
      "na",
      "na",
      6,
      "na",
      4,
      "na",
      "na",
      "na",
      "na",
      "na",
      8,
      "na",
      "na",
      "na",
      10,
      "na",
      9,
    ],
    pl11: [
      "na",
      1,
      "na",
      "na",
      4,
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
      0,
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      6,
      "na",
      "na",
      "na",
      1,
      "na",
      "na",
      "na",
    ],
    ph33: [
      "na",
      9,
      "na",
      "na",
      "na",
      7,
      "na",
      "na",
      9,
      "na",
      "na",
      "na",
      "na",
      9,
      "na",
      "na",
      "na",
      "na",
      "na",
      6,
      "na",
      4,
      "na",
      "na",
      "na",
      "na",
      "na",
      8,
      "na",
      "na",
      "na",
      10,
    ],
    pl33: [
      "na",
      "na",
      "na",
      1,
      "na",
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
      0,
      "na",
      "na",
      "na",
      "na",
      "na",
      2,
      "na",
      "na",
      "na",
      "na",
      "na",
      "na",
      1,
      "na",
    ],
    hb5: [
      -2, -3, -4, -1, 0, 0, -1, -2, -3, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, -1, -2, -3, 0, 0, 0, -1,
    ],
    lb5: [0, -1, -2, -3, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, -1, 0, 0, 0],
    hb3: [-2, -2, 0, -1, 0, 0, -1, -2, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, -1, -2, -2, 0, 0, 0, -1],
    lb3: [0, -1, -2, -2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, -1, 0, 0, 0],
    h5: [
      9,
      9,
      9,
      7,
      "na",
      9,
      9,
      9,
      9,
      "na",
      9,
      9,
      9,
      "na",
      0,
      3,
      6,
      "na",
      4,
      4,
      4,
      "na",
      "na",
      6,
      8,
      8,
      8,
      8,
      10,
      "na",
      9,
      9,
    ],
    l5: [
      1,
      1,
      1,
      1,
      "na",
      9,
      3,
      2,
      2,
      "na",
      9,
      6,
      1,
      "na",
      0,
      0,
      0,
      "na",
      4,
      3,
      2,
      "na",
      "na",
      6,
      6,
      6,
      2,
      1,
      1,
      "na",
      9,
      5,
    ],
  };
  it("window extremes restart after an na; pivot scans stop at one", async () => {
    const got = await byK(PATTERN, HOLES, {
      ph: "ta.pivothigh(src, 2, 2)",
      pl: "ta.pivotlow(src, 2, 2)",
      ph11: "ta.pivothigh(src, 1, 1)",
      pl11: "ta.pivotlow(src, 1, 1)",
      ph33: "ta.pivothigh(src, 3, 3)",
      pl33: "ta.pivotlow(src, 3, 3)",
      hb5: "ta.highestbars(src, 5)",
      lb5: "ta.lowestbars(src, 5)",
      hb3: "ta.highestbars(src, 3)",
      lb3: "ta.lowestbars(src, 3)",
      h5: "ta.highest(src, 5)",
      l5: "ta.lowest(src, 5)",
    });
    for (const name of Object.keys(TV)) same(got[name], want(TV, name));
  });
});

describe("ta.range skips na and measures from 0 at most", () => {
  // TradingView's values (range-na: same positive series as above; a negative series of period 12
  // with na at k = 2, 5, 6, 7, 11): the window is the last `length` non-na values, an na bar repeats
  // the previous result, and the maximum starts at the smallest positive double, so an all-negative
  // window measures from 0 and a lone 0 gives 5e-324.
  const POS = [1, 2, 7, 4, 0, 9, 3, 2, 8, 0, 9, 6, 1, 0, 0, 3, 6, 0, 4, 3, 2, 0, 0, 6, 8, 7, 2, 1, 10, 0, 9, 5];
  const POS_HOLES = [4, 9, 13, 17, 21, 22, 29];
  const NEG = [-5, -3, 0, -8, -1, 0, 0, 0, -2, 4, -6, 0];
  const NEG_HOLES = [2, 5, 6, 7, 11];
  const TV_POS: Table = {
    r1: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5e-324, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    r3: [8, 4, 6, 5, 5, 5, 6, 7, 6, 6, 7, 3, 8, 8, 6, 3, 6, 6, 3, 3, 2, 2, 2, 4, 6, 2, 6, 6, 9, 9, 9, 5],
    r5: [9, 9, 8, 6, 6, 8, 7, 7, 7, 7, 7, 7, 8, 8, 9, 9, 6, 6, 6, 6, 4, 4, 4, 4, 6, 6, 6, 7, 9, 9, 9, 9],
    r8: [9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 8, 8, 9, 9, 9, 9, 9, 9, 6, 6, 6, 6, 8, 6, 6, 7, 9, 9, 9, 9],
  };
  const TV_NEG: Table = {
    n1: [5, 3, 3, 8, 1, 1, 1, 1, 2, 0, 6, 6],
    n3: [10, 6, 6, 8, 8, 8, 8, 8, 8, 6, 10, 10],
    n5: [10, 10, 10, 12, 8, 8, 8, 8, 8, 12, 12, 12],
  };

  it("positive series with na holes", async () => {
    const got = await byK(POS, POS_HOLES, {
      r1: "ta.range(src, 1)",
      r3: "ta.range(src, 3)",
      r5: "ta.range(src, 5)",
      r8: "ta.range(src, 8)",
    });
    for (const name of Object.keys(TV_POS)) same(got[name], want(TV_POS, name));
  });

  it("negative series: measured from 0", async () => {
    const got = await byK(NEG, NEG_HOLES, { n1: "ta.range(src, 1)", n3: "ta.range(src, 3)", n5: "ta.range(src, 5)" });
    for (const name of Object.keys(TV_NEG)) same(got[name], want(TV_NEG, name));
  });

  it("na until `length` non-na values were seen (bars 0..9)", async () => {
    const neg = NEG.map((v) => v.toFixed(1)).join(", ");
    const p = await plots(
      `var float[] pat = array.from(${neg})
k = bar_index % 12
float src = k == 2 or k == 5 or k == 6 or k == 7 or k == 11 ? na : array.get(pat, k)
float lead = bar_index < 3 ? na : bar_index % 4
float nothing = na
plot(ta.range(src, 1), "n1")
plot(ta.range(src, 3), "n3")
plot(ta.range(src, 5), "n5")
plot(ta.range(lead, 3), "q3")
plot(ta.range(nothing, 3), "allna")`,
      fromCloses(Array.from({ length: 10 }, () => 100)),
    );
    const NA = NaN;
    same(p.n1, [5, 3, 3, 8, 1, 1, 1, 1, 2, 0]);
    same(p.n3, [NA, NA, NA, 8, 8, 8, 8, 8, 8, 6]);
    same(p.n5, [NA, NA, NA, NA, NA, NA, NA, NA, 8, 12]);
    same(p.q3, [NA, NA, NA, NA, NA, 3, 2, 2, 3, 3]);
    same(
      p.allna,
      Array.from({ length: 10 }, () => NA),
    );
  });
});
