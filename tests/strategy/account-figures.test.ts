// The strategy.* account variables read every bar (src/builtins/strategy/variables.ts) take their
// sums through the ledger's `figure` field (Ledger.openProfitAtClose and the *Figure readers: no
// double crosses a call V8 may not inline). Each must stay the figure the broker's own readers give,
// bit for bit: random open trades (both sides, pyramided, fractional quantities, commissions, point
// values), closes including na, netprofit moved by a closed trade.

import { describe, expect, it, vi } from "vitest";
import { strategyVariables } from "../../src/builtins/strategy/variables.js";
import type { ExecContext } from "../../src/builtins/types.js";
import type { Broker } from "../../src/strategy/broker.js";
import { createBroker } from "../../src/strategy/index.js";
import { Ledger } from "../../src/strategy/ledger.js";
import { columnsOf, makeCtx } from "./harness.js";

const read = (name: string, b: Broker, ctx: ExecContext): unknown => {
  const def = strategyVariables[name];
  const out = def.broker!.read(b, ctx);
  // the generic getter (the interpreter's fallback) reads the same
  expect(Object.is(def.get(ctx, { state: undefined, id: 0 }), out)).toBe(true);
  return out;
};

describe("the strategy.* account figures", () => {
  it("equity, openprofit, position size and price, grossloss read the broker's own figures bit for bit", () => {
    const ctx = makeCtx(columnsOf([[100, 101, 99, 100]]), { type: "stock" });
    let s = 4242;
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    let checked = 0;
    for (let round = 0; round < 200; round++) {
      const b = createBroker({ initial_capital: pick([1000, 100000, 12345.67]) }, ctx);
      ctx.broker = b;
      b.ledger.pointValue = pick([1, 0.1, 50, 1 / 3]);
      b.ledger.netProfit = pick([0, 123.456, -77.7 / 3]);
      b.ledger.grossLoss = pick([0, 99.1, 1 / 7]);
      b.ledger.lossTrades = pick([0, 2]);
      const side = rnd() < 0.5 ? 1 : -1;
      const n = Math.floor(rnd() * 4);
      for (let i = 0; i < n; i++)
        b.ledger.openTrade(
          "E",
          null,
          side,
          pick([1, 3, 0.5, 17.25, 0.1 + 0.2]),
          50 + Math.floor(rnd() * 100000) / 1000,
          pick([0, 0.1, 1.37, 1 / 3]),
          0,
          0,
        );
      for (const close of [NaN, 0, 100, 49.999, 150.3 + rnd(), 1e-9]) {
        ctx.close = close;
        const l = b.ledger;
        const op = l.openProfit(close);
        const base = b.settings.initialCapital + l.netProfit;
        const same = (name: string, want: unknown) => expect([name, read(name, b, ctx)]).toEqual([name, want]);
        same("strategy.equity", b.equity(close));
        same("strategy.openprofit", op);
        same("strategy.openprofit_percent", (op / base) * 100);
        same("strategy.position_size", l.positionSize());
        same("strategy.position_avg_price", l.avgPrice());
        same("strategy.grossloss", l.grossLoss + l.openCommission());
        same("strategy.grossloss_percent", ((l.grossLoss + l.openCommission()) / b.settings.initialCapital) * 100);
        same("strategy.avg_losing_trade", l.lossTrades > 0 ? (l.grossLoss + l.openCommission()) / l.lossTrades : NaN);
        // the broker's readers against the plain sums, in the trades' order
        let p = 0;
        let size = 0;
        let q = 0;
        let v = 0;
        let c = 0;
        for (const t of l.open) {
          p += (close - t.entryPrice) * t.side * t.qty * l.pointValue - t.commission;
          size += t.side * t.qty;
          q += t.qty;
          v += t.qty * t.entryPrice;
          c += t.commission;
        }
        expect([op, l.positionSize(), l.avgPrice(), l.openCommission()]).toEqual([p, size, q > 0 ? v / q : NaN, c]);
        expect(b.equity(close)).toEqual(base + (close === close ? p : 0));
        checked++;
      }
    }
    expect(checked).toBe(1200);
  });

  it("no per-bar figure goes through a reader that returns a double (a boxed number a bar where V8 does not inline it)", () => {
    const ctx = makeCtx(columnsOf([[100, 101, 99, 100]]), { type: "stock" });
    const b = createBroker({ initial_capital: 1000, pyramiding: 2 }, ctx);
    ctx.broker = b;
    ctx.close = 100.25;
    b.ledger.openTrade("E", null, 1, 0.5, 99.9, 0.1, 0, 0);
    b.ledger.lossTrades = 1;
    const returning = (["openProfit", "openCommission", "positionSize", "avgPrice"] as const).map((m) =>
      vi.spyOn(Ledger.prototype, m),
    );
    const equity = vi.spyOn(b, "equity");
    try {
      for (const name of [
        "strategy.equity",
        "strategy.openprofit",
        "strategy.openprofit_percent",
        "strategy.position_size",
        "strategy.position_avg_price",
        "strategy.grossloss",
        "strategy.grossloss_percent",
        "strategy.avg_losing_trade",
      ])
        expect(Number.isFinite(strategyVariables[name].broker!.read(b, ctx) as number)).toBe(true);
      for (const spy of [...returning, equity]) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of returning) spy.mockRestore();
    }
  });
});
