// The broker's plain flat bar (src/strategy/broker.ts onBarOpen, Broker.plain): a broker with no
// per-bar feature (currency conversion, magnifier, process_orders_on_close, recalc), flat, nothing
// pending and no risk rule acting, opens a bar in a few compares (and a plain broker's other bars
// walk without the feature checks). Checked against
// the full way (plain = 0) on random flows with long flat stretches, exits waiting while flat, risk
// rules set in mid-run, NaN bars and v5 scripts; and that the short way is the one taken.

import { describe, expect, it, vi } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { createBroker } from "../../src/strategy/index.js";
import { Broker } from "../../src/strategy/broker.js";
import { EquityTracker } from "../../src/strategy/stats.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

const site: CallSite = { state: undefined, id: 0 };
const call = (name: string, ctx: ExecContext, ...args: unknown[]) => functions[name].impl(ctx, args, site);

type Row = [number, number, number, number];

/** A random walk of `n` hourly bars; every 97th bar has a NaN price when `gaps`. */
function rows(n: number, seed: number, gaps: boolean): Row[] {
  let s = seed >>> 0;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const tick = (x: number) => Math.round(x * 100) / 100;
  const out: Row[] = [];
  let c = 100;
  for (let i = 0; i < n; i++) {
    const o = tick(c + (rnd() - 0.5) * 0.4);
    const cl = tick(o + (rnd() - 0.5) * 2);
    const h = tick(Math.max(o, cl) + rnd());
    const l = tick(Math.min(o, cl) - rnd());
    out.push(gaps && i % 97 === 50 ? [o, NaN, l, cl] : [o, h, l, cl]);
    c = cl;
  }
  return out;
}

/**
 * Random order flow with flat stretches (orders on a few bars in ten only): market and stop entries,
 * exits placed while flat and kept, closes (some at once, inside the bar) and cancels; from bar
 * `rulesAt` on, the risk rules of `rules` (called on every bar, like a script's top level).
 */
function run(seed: number, plain: boolean, settings: Record<string, unknown>, version: number, rules: number) {
  const bars = rows(600, seed, seed % 2 === 0);
  const ctx = makeCtx(columnsOf(bars), { type: "stock" }, { version });
  const broker = createBroker({ pyramiding: 2, ...settings }, ctx);
  if (!plain) broker.plain = 0;
  ctx.broker = broker;
  let s = (seed * 7919) >>> 0;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const rulesAt = 150 + (seed % 5) * 60;
  for (let i = 0; i < bars.length; i++) {
    setBar(ctx, i);
    broker.onBarOpen(ctx);
    const c = ctx.close;
    if (i >= rulesAt) {
      if (rules === 1) call("strategy.risk.max_intraday_loss", ctx, 2, "percent_of_equity");
      else if (rules === 2) call("strategy.risk.max_drawdown", ctx, 3, "percent_of_equity");
      else if (rules === 3) call("strategy.risk.max_cons_loss_days", ctx, 2);
      else if (rules === 4) call("strategy.risk.max_intraday_filled_orders", ctx, 2);
    }
    // a burst of activity on some bars; flat stretches between
    if (i % 10 < 2) {
      const r = rnd();
      if (r < 0.3) call("strategy.entry", ctx, "L", "long");
      else if (r < 0.5) call("strategy.entry", ctx, "S", "short", NaN, NaN, c - 1.2);
      else if (r < 0.6) call("strategy.cancel", ctx, "S");
      else if (r < 0.75) call("strategy.close_all", ctx);
      // closed at once, inside the bar: its exits go at the next bar's open (a flat one)
      else if (r < 0.85) call("strategy.close", ctx, "L", null, NaN, NaN, null, true);
    }
    // exits placed on every bar, flat or not: they wait for their trades
    call("strategy.exit", ctx, "XL", "L", NaN, NaN, NaN, c + 1.5, NaN, c - 1.5);
    if (i % 7 === 0) call("strategy.exit", ctx, "XS", "S", NaN, NaN, NaN, c - 1.1, NaN, c + 1.3);
    broker.onBarClose(ctx);
  }
  const res = broker.finish(ctx);
  return {
    trades: res.trades,
    equity: res.equity,
    stats: res.stats,
    events: broker.events,
    open: broker.ledger.open.map((t) => ({ ...t, exitFilled: null, trail: null })),
  };
}

describe("the broker's plain flat bar", () => {
  it("books exactly what the full way books, over settings, risk rules set in mid-run, NaN bars and v5", () => {
    let trades = 0;
    for (let seed = 1; seed <= 10; seed++) {
      for (const settings of [
        {},
        { process_orders_on_close: true },
        { commission_type: "percent", commission_value: 0.1, slippage: 2 },
        { initial_capital: 500, margin_long: 20, margin_short: 20, default_qty_type: "fixed", default_qty_value: 30 },
      ]) {
        for (const version of [6, 5]) {
          for (let rules = 0; rules <= 4; rules++) {
            const short = run(seed, true, settings, version, rules);
            const full = run(seed, false, settings, version, rules);
            expect(short, `seed ${seed} ${JSON.stringify(settings)} v${version} rules ${rules}`).toEqual(full);
            trades += full.trades.length;
          }
        }
      }
    }
    expect(trades).toBeGreaterThan(2000);
  });

  it("a plain broker's flat bars open the short way; a risk rule or a per-bar feature takes the full way", () => {
    const open = vi.spyOn(Broker.prototype as unknown as { openBar(ctx: ExecContext): void }, "openBar");
    const valued = vi.spyOn(EquityTracker.prototype, "onBar");
    const bars = rows(200, 5, false);
    // a flat bar's close at an unchanged equity repeats the curve's last value but a day's first (it
    // closes a daily period: the tracker's full bar)
    const dayFirst: boolean[] = [];
    const cols = columnsOf(bars);
    for (let i = 0; i < bars.length; i++)
      dayFirst.push(i === 0 || Math.floor(cols.time[i] / 86_400_000) !== Math.floor(cols.time[i - 1] / 86_400_000));
    const days = (from: number, to: number) => dayFirst.slice(from, to).filter(Boolean).length;
    expect(days(0, 200)).toBeGreaterThan(5);
    const flatRun = (settings: Record<string, unknown>, rule: boolean) => {
      const ctx = makeCtx(columnsOf(bars), { type: "stock" });
      const broker = createBroker(settings, ctx);
      ctx.broker = broker;
      open.mockClear();
      valued.mockClear();
      for (let i = 0; i < bars.length; i++) {
        setBar(ctx, i);
        broker.onBarOpen(ctx);
        if (rule && i >= 100) call("strategy.risk.max_drawdown", ctx, 10, "percent_of_equity");
        broker.onBarClose(ctx);
      }
      return [open.mock.calls.length, valued.mock.calls.length];
    };
    // the first bar settles Broker.plain
    expect(flatRun({}, false)).toEqual([1, days(0, 200)]);
    // a rule set at bar 100 acts from the next bar's open
    expect(flatRun({}, true)).toEqual([1 + 99, days(0, 200)]);
    expect(flatRun({ process_orders_on_close: true }, false)).toEqual([200, days(0, 200)]);
    open.mockRestore();
    valued.mockRestore();
  });
});
