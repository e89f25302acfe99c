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

async function byK(pattern: number[], holes: number[], calls: Record<string, string>): Promise<Record<string, number[]>> {
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
    ph: ["na", 8, "na", "na", "na", "na", 7, "na", "na", "na", "na", "na", 9, "na", "na", "na", 9, "na", "na", "na", "na", "na", "na", 8, "na", "na", "na", "na"],
    pl: ["na", "na", 1, "na", "na", "na", "na", "na", 2, "na", "na", "na", "na", "na", "na", 3, "na", "na", "na", "na", 2, "na", "na", "na", "na", 1, "na", "na"],
    ph11: [8, "na", "na", 7, "na", 7, "na", "na", "na", "na", "na", 9, "na", "na", "na", 9, "na", "na", 5, "na", "na", "na", 8, "na", "na", "na", "na", "na"],
    pl11: ["na", 1, "na", "na", 4, "na", "na", 2, "na", 3, "na", "na", "na", "na", 3, "na", "na", 2, "na", 2, "na", "na", "na", "na", 1, "na", "na", "na"],
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
    ph: [9, "na", "na", "na", 7, "na", "na", 9, "na", "na", 8, "na", 9, "na", "na", "na", "na", "na", 6, "na", 4, "na", "na", "na", "na", "na", 8, "na", "na", "na", 10, "na"],
    pl: ["na", "na", 1, "na", "na", "na", "na", "na", "na", 2, "na", "na", "na", "na", 1, "na", 0, "na", "na", "na", "na", "na", 2, "na", "na", 6, "na", "na", "na", 1, "na", "na"],
    ph11: ["na", "na", "na", 7, "na", "na", 9, "na", "na", 8, "na", 9, "na", "na", "na", "na", "na", 6, "na", 4, "na", "na", "na", "na", "na", 8, "na", "na", "na", 10, "na", 9],
    pl11: ["na", 1, "na", "na", 4, "na", "na", "na", 2, "na", "na", "na", "na", 1, "na", 0, "na", "na", "na", "na", "na", 2, "na", "na", 6, "na", "na", "na", 1, "na", "na", "na"],
    ph33: ["na", 9, "na", "na", "na", 7, "na", "na", 9, "na", "na", "na", "na", 9, "na", "na", "na", "na", "na", 6, "na", 4, "na", "na", "na", "na", "na", 8, "na", "na", "na", 10],
    pl33: ["na", "na", "na", 1, "na", "na", "na", "na", "na", "na", 2, "na", "na", "na", "na", 1, "na", 0, "na", "na", "na", "na", "na", 2, "na", "na", "na", "na", "na", "na", 1, "na"],
    hb5: [-2, -3, -4, -1, 0, 0, -1, -2, -3, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, -1, -2, -3, 0, 0, 0, -1],
    lb5: [0, -1, -2, -3, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, -1, 0, 0, 0],
    hb3: [-2, -2, 0, -1, 0, 0, -1, -2, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, -1, -2, -2, 0, 0, 0, -1],
    lb3: [0, -1, -2, -2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0, -1, 0, 0, 0],
    h5: [9, 9, 9, 7, "na", 9, 9, 9, 9, "na", 9, 9, 9, "na", 0, 3, 6, "na", 4, 4, 4, "na", "na", 6, 8, 8, 8, 8, 10, "na", 9, 9],
    l5: [1, 1, 1, 1, "na", 9, 3, 2, 2, "na", 9, 6, 1, "na", 0, 0, 0, "na", 4, 3, 2, "na", "na", 6, 6, 6, 2, 1, 1, "na", 9, 5],
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
