// The broker's quiet bar (src/strategy/walk.ts quietRange, risk.ts lineCurrent): a bar whose range
// reaches no pending level and whose prices cannot bring a margin call takes neither margin check.
// The safe price interval is checked against the exact margin check at prices right next to the
// call level; the whole-run equality with the full walk is tests/strategy/fast-paths.test.ts's.

import { describe, expect, it, vi } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { createBroker } from "../../src/strategy/index.js";
import { RiskRules } from "../../src/strategy/risk.js";
import { columnsOf, makeCtx, randomMarginCase, setBar } from "./harness.js";

const site: CallSite = { state: undefined, id: 0 };

describe("the broker's quiet bars", () => {
  it("a price range the margin line calls clear brings no margin call at any of its prices, right next to the call level too", () => {
    const ctx = makeCtx(columnsOf([[100, 101, 99, 100]]), { type: "stock" });
    let s = 777;
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let clear = 0;
    let notClear = 0;
    let nearClear = 0;
    for (let round = 0; round < 300; round++) {
      const { make, pick, level } = randomMarginCase(rnd, ctx);
      const prices = [pick([1, 10, 60, 100, 150, 400]) * (0.5 + rnd()), 0, -3];
      const near = level > 0 && Number.isFinite(level);
      if (near)
        for (let k = -6; k <= 6; k++)
          prices.push(
            level * (1 + k * 2 ** -52),
            level * (1 + k * 1e-12),
            level * (1 + k * 1e-9),
            level * (1 + k * 1e-3),
          );
      const fast = make(true);
      for (const p of prices) {
        // a one-price range, and one from the price to a random other
        const q = p * (0.9 + 0.2 * rnd());
        for (const [lo, hi] of [
          [p, p],
          [Math.min(p, q), Math.max(p, q)],
        ]) {
          if (!(fast.risk.lineCurrent(fast) && lo > fast.risk.safeLo && hi < fast.risk.safeHi)) {
            notClear++;
            continue;
          }
          clear++;
          if (near && Math.abs(lo / level - 1) < 1e-6) nearClear++;
          // neither end (nor the level itself where it lies inside) brings a call on the exact check
          for (const x of [lo, hi, near && lo <= level && level <= hi ? level : lo]) {
            const full = make(false);
            full.risk.checkMargin(x, full);
            expect(full.risk.marginCalls, `price ${x} of [${lo}, ${hi}], level ${level}`).toBe(0);
          }
        }
      }
    }
    expect(clear).toBeGreaterThan(1000);
    expect(notClear).toBeGreaterThan(300);
    expect(nearClear).toBeGreaterThan(50);
  });

  it("a held trade's quiet bars take no margin check, and a bar whose range reaches the call level does", () => {
    // one long on margin: the close drifts down towards the call level, bars of 2 points
    const rows: [number, number, number, number][] = [];
    for (let i = 0; i < 60; i++) {
      const c = 100 - i * 0.7;
      rows.push([c + 0.25, c + 1, c - 1, c]);
    }
    const ctx = makeCtx(columnsOf(rows), { type: "stock" }) as ExecContext;
    const broker = createBroker(
      { initial_capital: 1000, margin_long: 50, default_qty_type: "fixed", default_qty_value: 15 },
      ctx,
    );
    ctx.broker = broker;
    const checks = vi.spyOn(RiskRules.prototype, "checkMarginAt");
    const perBar: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      setBar(ctx, i);
      const before = checks.mock.calls.length;
      broker.onBarOpen(ctx);
      perBar.push(checks.mock.calls.length - before);
      if (i === 0) functions["strategy.entry"].impl(ctx, ["L", "long"], site);
      broker.onBarClose(ctx);
    }
    checks.mockRestore();
    // 15 at about 100 on 1000: equity 1000 + 15 (p - 100) meets the margin 7.5 p near 66.7
    expect(broker.risk.marginCalls).toBeGreaterThan(0);
    const held = perBar.slice(3, 30);
    expect(held.every((n) => n === 0)).toBe(true);
    expect(perBar.some((n) => n > 0)).toBe(true);
  });
});
