// ta calls that do not run on every bar (inside an `if`). Most windows hold the last `length` calls;
// wma/hma/alma/swma, change/mom/roc, percentrank and the pivots hold the last `length` bars, a bar
// without a call repeating the last call's value (the history of `source[i]` inside that block) -
// TradingView's rule as observed on its outputs (published with LuxAlgo/PineTS,
// tests/namespaces/ta/local-block-semantics.test.ts). Hand-computed here.
// Bars: close 1, 2, 4, 3, 5, 6, 8, 7; the calls run on bars 1, 2, 4, 5, 7 (bar_index % 3 != 0).
import { describe, it } from "vitest";
import { fromCloses, NA, plots, same } from "./script.js";

const data = fromCloses([1, 2, 4, 3, 5, 6, 8, 7]);

const body = (call: string) => `float v = na
if bar_index % 3 != 0
    v := ${call}
plot(v, "v")`;

describe("a call skipped on some bars", () => {
  it("change/mom look back in bars, the skipped bar repeating the last call's value", async () => {
    // bar 4: 2 bars back is bar 2 (4): 5 - 4; bar 5: bar 3 repeats bar 2: 6 - 4; bar 7: 7 - 6 (bar 5)
    same((await plots(body("ta.change(close, 2)"), data)).v, [NA, NA, NA, NA, 1, 2, NA, 1]);
    same((await plots(body("ta.mom(close, 2)"), data)).v, [NA, NA, NA, NA, 1, 2, NA, 1]);
    // one bar back is always the last call's value
    same((await plots(body("ta.change(close)"), data)).v, [NA, NA, 2, NA, 1, 1, NA, 1]);
  });

  it("wma and swma weigh the last bars", async () => {
    // bar 4: bars 2, 3 (repeats 4), 4 -> (4 + 2*4 + 3*5)/6; bar 5: 4, 5, 6; bar 7: 6, 6 (repeated), 7
    same((await plots(body("ta.wma(close, 3)"), data)).v, [
      NA,
      NA,
      NA,
      NA,
      (4 + 8 + 15) / 6,
      (4 + 10 + 18) / 6,
      NA,
      (6 + 12 + 21) / 6,
    ]);
    // bar 4: bars 1..4 = 2, 4, 4, 5 (four bars although only three calls); bar 5: 4, 4, 5, 6
    same((await plots(body("ta.swma(close)"), data)).v, [
      NA,
      NA,
      NA,
      NA,
      (5 + 2 * 4 + 2 * 4 + 2) / 6,
      (6 + 2 * 5 + 2 * 4 + 4) / 6,
      NA,
      (7 + 2 * 6 + 2 * 6 + 5) / 6,
    ]);
  });

  it("percentrank compares with the previous bars", async () => {
    // bar 4 has three previous bars (1, 2, 3 = 2, 4, 4) though only two previous calls: 5 -> 100
    same((await plots(body("ta.percentrank(close, 3)"), data)).v, [NA, NA, NA, NA, 100, 100, NA, 100]);
    // bar 7: -7 against bars 4, 5, 6 = -5, -6, -6 (bar 6 repeats bar 5): none is <= -7
    same((await plots(body("ta.percentrank(-close, 3)"), data)).v, [NA, NA, NA, NA, 0, 0, NA, 0]);
  });

  it("sma keeps the last calls", async () => {
    // bar 4: calls on bars 1, 2, 4 -> (2 + 4 + 5)/3; bar 5: 4, 5, 6; bar 7: 5, 6, 7
    same((await plots(body("ta.sma(close, 3)"), data)).v, [NA, NA, NA, NA, 11 / 3, 5, NA, 6]);
  });
});
