// Realtime rollback: a kernel snapshot at the close of the previous bar, restored before each tick of
// the forming bar, leaves every ta.* call site exactly as if only the last tick had happened.
import { describe, expect, it } from "vitest";
import type { Kernels } from "../../src/kernels/index.js";
import { newRun, setBar, type Sites } from "./harness.js";
import { randomBars } from "./random.js";

const b = randomBars(80, 13);

/** Every stateful ta family at its own call site, one value per bar. */
function script(s: Sites, i: number): unknown[] {
  const c = s.ctx.close;
  const [bbm, bbu] = s.f("bb", "bb", c, 10, 2);
  const st = s.f("st", "supertrend", 3, 7);
  return [
    s.f("sma", "sma", c, 7),
    s.f("ema", "ema", c, 9),
    s.f("wma", "wma", c, 5),
    s.f("hi", "highest", c, 6),
    s.f("med", "median", c, 8),
    s.f("rsi", "rsi", c, 14),
    s.f("sar", "sar", 0.02, 0.02, 0.2),
    bbm,
    bbu,
    st[0],
    st[1],
    s.f("x", "crossover", c, s.ctx.open),
    s.f("vw", "valuewhen", i % 3 === 0, c, 1),
    s.f("vs", "valuewhen", i % 3 === 0, "s" + i, 1),
    s.v("obv", "obv"),
    s.f("pr", "percentrank", c, 10),
    s.f("dmi", "dmi", 5, 5)[2],
  ];
}

describe("realtime ticks", () => {
  it("restore before each tick = only the last tick happened", async () => {
    const last = b.close.length - 1;
    // run A: history, then 5 ticks on the last bar with rollback before each
    const a = await newRun(b);
    for (let i = 0; i < last; i++) {
      setBar(a.ctx, i);
      script(a, i);
    }
    const k = a.ctx.kernels as Kernels;
    const snap = k.snapshot();
    let got: unknown[] = [];
    const ticks = [b.close[last] + 0.5, b.close[last] - 1.25, b.close[last] + 2, b.close[last]];
    for (const t of ticks) {
      k.restore(snap);
      setBar(a.ctx, last);
      a.ctx.close = t;
      a.ctx.high = Math.max(a.ctx.high, t);
      a.ctx.low = Math.min(a.ctx.low, t);
      got = script(a, last);
    }
    // run B: a fresh run that sees only the final tick's bar
    const bb = await newRun(b);
    let want: unknown[] = [];
    for (let i = 0; i <= last; i++) {
      setBar(bb.ctx, i);
      if (i === last) {
        const t = ticks[ticks.length - 1];
        bb.ctx.close = t;
        bb.ctx.high = Math.max(bb.ctx.high, t);
        bb.ctx.low = Math.min(bb.ctx.low, t);
      }
      want = script(bb, i);
    }
    expect(got).toEqual(want);
  });
});
