// TradingView's built-in strategies (tests/strategy/builtin-scripts/*.pine, written as TradingView
// ships them) on the conformance EURUSD 1h bars, in both modes, checked trade by trade against an
// independent reference: per strategy, the orders each bar's execution places (computed here in
// TypeScript from the manual's indicator definitions) fed to the tiny reference broker of
// builtin-reference.ts (the manual's fill rules). Every trade must agree on direction, entry/exit
// bars and prices, quantity and P&L (the brief asks for at least the first 50; all of them agree).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runBoth } from "../helpers/run-both.js";
import { loadCase, syminfoOf, type Columns } from "./harness.js";
import { pivots, simulate, trueRange, type Action, type RefTrade } from "./builtin-reference.js";
import { crossover, crossunder, ema, highest, lowest, rma, sma } from "./ta.js";
import type { Trade } from "../../src/core/result.js";

const data = loadCase("channelbreakout");
const c = data.cols;
const mintick = data.settings.symbol.mintick as number;
const n = c.time.length;
const bars = Array.from({ length: n }, (_, i) => ({
  time: c.time[i],
  open: c.open[i],
  high: c.high[i],
  low: c.low[i],
  close: c.close[i],
  volume: c.volume[i],
}));

const L = (id: string, stop = NaN): Action => ({ kind: "entry", id, dir: 1, stop });
const S = (id: string, stop = NaN): Action => ({ kind: "entry", id, dir: -1, stop });
const X = (id: string): Action => ({ kind: "cancel", id });
const LL = (id: string, limit: number): Action => ({ kind: "entry", id, dir: 1, stop: NaN, limit });
const SL = (id: string, limit: number): Action => ({ kind: "entry", id, dir: -1, stop: NaN, limit });
const XT = (from: string, profit: number, loss: number): Action => ({ kind: "exit", from, profit, loss });

/** Per strategy: the actions of bar i's execution, in script order. */
const SIGNALS: Record<string, (c: Columns) => (i: number, positionSize: number) => Action[]> = {
  consecutive_updown(c) {
    const ups = new Float64Array(n);
    const dns = new Float64Array(n);
    for (let i = 1; i < n; i++) {
      ups[i] = c.close[i] > c.close[i - 1] ? ups[i - 1] + 1 : 0;
      dns[i] = c.close[i] < c.close[i - 1] ? dns[i - 1] + 1 : 0;
    }
    return (i) => [...(ups[i] >= 3 ? [L("ConsUpLE")] : []), ...(dns[i] >= 3 ? [S("ConsDnSE")] : [])];
  },
  inside_bar(c) {
    return (i) => {
      if (i < 1 || !(c.high[i] < c.high[i - 1] && c.low[i] > c.low[i - 1])) return [];
      return c.close[i] > c.open[i] ? [L("InsBarLE")] : c.close[i] < c.open[i] ? [S("InsBarSE")] : [];
    };
  },
  outside_bar(c) {
    return (i) => {
      if (i < 1 || !(c.high[i] > c.high[i - 1] && c.low[i] < c.low[i - 1])) return [];
      return c.close[i] > c.open[i] ? [L("OutBarLE")] : c.close[i] < c.open[i] ? [S("OutBarSE")] : [];
    };
  },
  keltner_channels(c) {
    const ma = ema(c.close, 20);
    const atr = rma(trueRange(c, true), 10);
    const upper = ma.map((m, i) => m + atr[i] * 2);
    const lower = ma.map((m, i) => m - atr[i] * 2);
    let bprice = 0;
    let sprice = 0;
    let crossB = false;
    let crossS = false;
    const acts: Action[][] = [];
    for (let i = 0; i < n; i++) {
      const cu = crossover(c.close, upper, i);
      const cl = crossunder(c.close, lower, i);
      if (cu) bprice = c.high[i] + mintick;
      if (cl) sprice = c.low[i] - mintick;
      if (cu) crossB = true;
      if (cl) crossS = true;
      const a: Action[] = [];
      if (crossB && (c.close[i] < ma[i] || c.high[i] >= bprice)) a.push(X("KltChLE"));
      if (cu) a.push(L("KltChLE", bprice));
      if (crossS && (c.close[i] > ma[i] || c.low[i] <= sprice)) a.push(X("KltChSE"));
      if (cl) a.push(S("KltChSE", sprice));
      acts.push(a);
    }
    return (i) => acts[i];
  },
  momentum(c) {
    const mom0 = c.close.map((v, i) => (i >= 12 ? v - c.close[i - 12] : NaN));
    const mom1 = mom0.map((v, i) => (i >= 1 ? v - mom0[i - 1] : NaN));
    return (i) => [
      mom0[i] > 0 && mom1[i] > 0 ? L("MomLE", c.high[i] + mintick) : X("MomLE"),
      mom0[i] < 0 && mom1[i] < 0 ? S("MomSE", c.low[i] - mintick) : X("MomSE"),
    ];
  },
  movingavg_cross(c) {
    const ma = sma(c.close, 9);
    let b = 0;
    let s = 0;
    const acts: Action[][] = [];
    for (let i = 0; i < n; i++) {
      b = c.close[i] > ma[i] ? b + 1 : 0;
      s = c.close[i] < ma[i] ? s + 1 : 0;
      acts.push([...(b === 1 ? [L("MACrossLE")] : []), ...(s === 1 ? [S("MACrossSE")] : [])]);
    }
    return (i) => acts[i];
  },
  movingavg2line_cross(c) {
    const fast = sma(c.close, 9);
    const slow = sma(c.close, 18);
    return (i) => [
      ...(crossover(fast, slow, i) ? [L("MA2CrossLE")] : []),
      ...(crossunder(fast, slow, i) ? [S("MA2CrossSE")] : []),
    ];
  },
  pivot_extension(c) {
    const ph = pivots(c.high, 4, 2, true);
    const pl = pivots(c.low, 4, 2, false);
    return (i) => [...(pl[i] === pl[i] ? [L("PivExtLE")] : []), ...(ph[i] === ph[i] ? [S("PivExtSE")] : [])];
  },
  pivot_reversal(c) {
    const ph = pivots(c.high, 4, 2, true);
    const pl = pivots(c.low, 4, 2, false);
    let hprice = NaN;
    let lprice = NaN;
    let le = false;
    let se = false;
    const acts: Action[][] = [];
    for (let i = 0; i < n; i++) {
      const a: Action[] = [];
      if (ph[i] === ph[i]) hprice = ph[i];
      le = ph[i] === ph[i] ? true : le && c.high[i] > hprice ? false : le;
      if (le) a.push(L("PivRevLE", hprice + mintick));
      if (pl[i] === pl[i]) lprice = pl[i];
      se = pl[i] === pl[i] ? true : se && c.low[i] < lprice ? false : se;
      if (se) a.push(S("PivRevSE", lprice - mintick));
      acts.push(a);
    }
    return (i) => acts[i];
  },
  price_channel(c) {
    const hh = highest(c.high, 20);
    const ll = lowest(c.low, 20);
    return (i) => (i >= 20 ? [L("PChLE", hh[i]), S("PChSE", ll[i])] : []);
  },
  roc(c) {
    return (i) => {
      if (i < 10) return [];
      const roc = (100 * (c.close[i] - c.close[i - 10])) / c.close[i - 10];
      return [...(roc > 0 ? [L("RocLE")] : []), ...(roc < 0 ? [S("RocSE")] : [])];
    };
  },
  stochastic_slow(c) {
    const hh = highest(c.high, 14);
    const ll = lowest(c.low, 14);
    const stoch = c.close.map((v, i) => (hh[i] - ll[i] === 0 ? NaN : (100 * (v - ll[i])) / (hh[i] - ll[i])));
    const k = sma(stoch, 3);
    const d = sma(k, 3);
    return (i) => {
      if (k[i] !== k[i] || d[i] !== d[i]) return [];
      const a: Action[] = [];
      if (crossover(k, d, i) && k[i] < 20) a.push(L("StochLE"));
      if (crossunder(k, d, i) && k[i] > 80) a.push(S("StochSE"));
      return a;
    };
  },
  supertrend(c) {
    // The manual's pine_supertrend(3, 10) on hl2.
    const atr = rma(trueRange(c, true), 10);
    const dir = new Float64Array(n).fill(NaN);
    let prevUp = NaN;
    let prevLo = NaN;
    let prevSt = NaN;
    for (let i = 0; i < n; i++) {
      const src = (c.high[i] + c.low[i]) / 2;
      let up = src + 3 * atr[i];
      let lo = src - 3 * atr[i];
      const pLo = prevLo === prevLo ? prevLo : 0;
      const pUp = prevUp === prevUp ? prevUp : 0;
      lo = lo > pLo || c.close[i - 1] < pLo ? lo : pLo;
      up = up < pUp || c.close[i - 1] > pUp ? up : pUp;
      if (i === 0 || atr[i - 1] !== atr[i - 1]) dir[i] = 1;
      else if (prevSt === pUp) dir[i] = c.close[i] > up ? -1 : 1;
      else dir[i] = c.close[i] < lo ? 1 : -1;
      prevSt = dir[i] === -1 ? lo : up;
      prevUp = up;
      prevLo = lo;
    }
    return (i) => {
      const ch = i >= 1 ? dir[i] - dir[i - 1] : NaN;
      return [...(ch < 0 ? [L("My Long Entry Id")] : []), ...(ch > 0 ? [S("My Short Entry Id")] : [])];
    };
  },
  volty_expan_close(c) {
    const atrs = sma(trueRange(c, false), 5).map((v) => v * 0.75);
    return (i) => (i >= 5 ? [L("VltClsLE", c.close[i] + atrs[i]), S("VltClsSE", c.close[i] - atrs[i])] : []);
  },
  // Order-type probes (not TradingView built-ins): exits, limits, stops with brackets.
  probe_bracket_exits(c) {
    const fast = sma(c.close, 9);
    const slow = sma(c.close, 18);
    return (i) => [
      ...(crossover(fast, slow, i) ? [L("L")] : []),
      ...(crossunder(fast, slow, i) ? [S("S")] : []),
      XT("L", 300, 150),
      XT("S", 300, 150),
    ];
  },
  probe_limit_entries(c) {
    return (i) => [
      c.close[i] < c.open[i] ? LL("LL", c.close[i] - 20 * mintick) : X("LL"),
      c.close[i] > c.open[i] ? SL("LS", c.close[i] + 20 * mintick) : X("LS"),
    ];
  },
  probe_stop_brackets(c) {
    const hh = highest(c.high, 20);
    const ll = lowest(c.low, 20);
    return (i) => [
      ...(i >= 20 ? [L("BL", hh[i] + mintick), S("BS", ll[i] - mintick)] : []),
      XT("BL", 400, 200),
      XT("BS", 400, 200),
    ];
  },
  probe_trailing_exits(c) {
    const fast = sma(c.close, 9);
    const slow = sma(c.close, 18);
    const trail = (from: string): Action => ({
      kind: "exit",
      from,
      profit: NaN,
      loss: 200,
      trailPoints: 100,
      trailOffset: 50,
    });
    return (i) => [
      ...(crossover(fast, slow, i) ? [L("L")] : []),
      ...(crossunder(fast, slow, i) ? [S("S")] : []),
      trail("L"),
      trail("S"),
    ];
  },
  probe_pyramiding_close(c) {
    const ma = sma(c.close, 20);
    return (i, size) => {
      const a: Action[] = [];
      if (i >= 1 && c.close[i] > c.open[i] && c.close[i - 1] > c.open[i - 1]) a.push(L("L"));
      if (i >= 1 && c.close[i] < c.open[i] && c.close[i - 1] < c.open[i - 1]) a.push(S("S"));
      if (size > 0 && c.close[i] < ma[i]) a.push({ kind: "close", id: "L" });
      if (size < 0 && c.close[i] > ma[i]) a.push({ kind: "close", id: "S" });
      return a;
    };
  },
  probe_orders_on_close(c) {
    const ma = sma(c.close, 20);
    const up = (i: number) => i >= 0 && c.close[i] > c.open[i];
    return (i, size) => {
      const a: Action[] = [];
      if (crossover(c.close, ma, i)) a.push(L("L"));
      if (crossunder(c.close, ma, i)) a.push(S("S"));
      if (i >= 2 && up(i) && up(i - 1) && up(i - 2)) a.push(L("L"));
      if (size < 0 && i >= 1 && up(i) && up(i - 1)) a.push({ kind: "close", id: "S" });
      return a;
    };
  },
  probe_stop_limit(c) {
    const fast = sma(c.close, 9);
    const slow = sma(c.close, 18);
    return (i) => [
      ...(crossover(fast, slow, i)
        ? [
            {
              kind: "entry",
              id: "BL",
              dir: 1,
              stop: c.high[i] + 10 * mintick,
              limit: c.high[i] + 5 * mintick,
            } as Action,
          ]
        : []),
      ...(crossunder(fast, slow, i)
        ? [{ kind: "entry", id: "BS", dir: -1, stop: c.low[i] - 10 * mintick, limit: c.low[i] - 5 * mintick } as Action]
        : []),
    ];
  },
  parabolic_sar(c) {
    // The built-in's own SAR recursion, ported line by line.
    const start = 0.02;
    const inc = 0.02;
    const max = 0.2;
    let uptrend = false;
    let ep = NaN;
    let sar = NaN;
    let af = start;
    let next = NaN;
    const acts: Action[][] = [[]];
    for (let i = 1; i < n; i++) {
      let firstTrendBar = false;
      sar = next;
      if (i === 1) {
        let prevSar: number;
        let prevEp: number;
        if (c.close[1] > c.close[0]) {
          uptrend = true;
          ep = c.high[1];
          prevSar = c.low[0];
          prevEp = c.high[1];
        } else {
          uptrend = false;
          ep = c.low[1];
          prevSar = c.high[0];
          prevEp = c.low[1];
        }
        firstTrendBar = true;
        sar = prevSar + start * (prevEp - prevSar);
      }
      if (uptrend) {
        if (sar > c.low[i]) {
          firstTrendBar = true;
          uptrend = false;
          sar = Math.max(ep, c.high[i]);
          ep = c.low[i];
          af = start;
        }
      } else if (sar < c.high[i]) {
        firstTrendBar = true;
        uptrend = true;
        sar = Math.min(ep, c.low[i]);
        ep = c.high[i];
        af = start;
      }
      if (!firstTrendBar) {
        if (uptrend && c.high[i] > ep) {
          ep = c.high[i];
          af = Math.min(af + inc, max);
        } else if (!uptrend && c.low[i] < ep) {
          ep = c.low[i];
          af = Math.min(af + inc, max);
        }
      }
      if (uptrend) {
        sar = Math.min(sar, c.low[i - 1]);
        if (i > 1) sar = Math.min(sar, c.low[i - 2]);
      } else {
        sar = Math.max(sar, c.high[i - 1]);
        if (i > 1) sar = Math.max(sar, c.high[i - 2]);
      }
      next = sar + af * (ep - sar);
      acts.push(uptrend ? [S("ParSE", next), X("ParLE")] : [L("ParLE", next), X("ParSE")]);
    }
    return (i) => acts[i];
  },
};

/** Closed trades a strategy lists (user manual, Limitations: "a maximum of 9000 orders"). */
const TRADE_LIMIT = 9000;

/** strategy(pyramiding) of the scripts that set it. */
const PYRAMIDING: Record<string, number> = { probe_pyramiding_close: 3, probe_orders_on_close: 2 };

/** Strategies that size with default_qty_type: the quantity for the equity and close of the order's bar. */
const SIZING: Record<string, (equity: number, close: number) => number> = {
  // percent_of_equity 15, floored to forex's 0.1 step (README: sizing at placement)
  supertrend: (equity, close) => Math.floor((equity * 0.15) / close / 0.1 + 1e-9) * 0.1,
};

/** Probes must really exercise what they probe: exit ids that some trades must close by. */
const EXITS_SEEN: Record<string, string[]> = {
  probe_bracket_exits: ["XL", "XS"],
  probe_stop_brackets: ["XBL", "XBS"],
  probe_trailing_exits: ["TL", "TS"],
};

function describeTrade(t: RefTrade): string {
  return `${t.dir > 0 ? "long" : "short"} ${t.qty} ${t.entryBar}@${t.entryPrice.toFixed(5)} -> ${t.exitBar}@${t.exitPrice.toFixed(5)} P&L ${t.profit.toFixed(2)}`;
}

function fromResult(t: Trade): RefTrade {
  return {
    dir: t.direction === "long" ? 1 : -1,
    entryBar: t.entry_bar_index,
    entryPrice: t.entry_price,
    exitBar: t.exit_bar_index ?? -1,
    exitPrice: t.exit_price ?? NaN,
    qty: t.qty,
    profit: t.profit,
  };
}

const same = (a: number, b: number): boolean => Math.abs(a - b) < mintick / 2;

describe("TradingView's built-in strategies against an independent reference (EURUSD 1h)", () => {
  for (const name of Object.keys(SIGNALS)) {
    it(name, async () => {
      const script = readFileSync(new URL(`builtin-scripts/${name}.pine`, import.meta.url), "utf8");
      const res = await runBoth(script, bars, {
        runtime: { timeframe: "60", syminfo: syminfoOf(data.settings.symbol) },
      });
      expect(res.error ?? null).toBeNull();
      const got = res.strategy!.trades.map(fromResult);
      const all = simulate(c, SIGNALS[name](c), mintick, {
        size: SIZING[name],
        pyramiding: PYRAMIDING[name],
        processOrdersOnClose: name === "probe_orders_on_close",
      });
      // past 9000 closed trades the list keeps the newest 9000 (numbered from the run's first trade);
      // the statistics still cover every trade
      const want = all.slice(Math.max(0, all.length - TRADE_LIMIT));
      expect(res.strategy!.stats.total_closed_trades).toBe(all.length);
      if (got.length > 0) expect(res.strategy!.trades[0].trade_num).toBe(all.length - want.length + 1);
      const netProfit = all.reduce((sum, t) => sum + t.profit, 0);
      expect(Math.abs(res.strategy!.stats.net_profit - netProfit)).toBeLessThanOrEqual(
        1e-6 * Math.max(1, Math.abs(netProfit)),
      );
      const k = Math.max(want.length, got.length);
      let matched = 0;
      const diffs: string[] = [];
      for (let j = 0; j < k; j++) {
        const a = got[j];
        const b = want[j];
        const ok =
          a !== undefined &&
          b !== undefined &&
          a.dir === b.dir &&
          a.entryBar === b.entryBar &&
          a.exitBar === b.exitBar &&
          same(a.entryPrice, b.entryPrice) &&
          same(a.exitPrice, b.exitPrice) &&
          Math.abs(a.qty - b.qty) < 1e-9 &&
          Math.abs(a.profit - b.profit) <= 1e-6 * Math.max(1, Math.abs(b.profit));
        if (ok) matched++;
        else if (diffs.length < 5)
          diffs.push(`#${j + 1} resin ${a ? describeTrade(a) : "none"} / reference ${b ? describeTrade(b) : "none"}`);
      }
      const line = `${name}: ${got.length} trades (reference ${want.length}), ${matched}/${k} matched`;
      console.log(`[builtin] ${line}${diffs.length ? "\n  " + diffs.join("\n  ") : ""}`);
      expect(k).toBeGreaterThanOrEqual(50);
      expect(diffs).toEqual([]);
      expect(got.length).toBe(want.length);
      if (PYRAMIDING[name]) {
        // the position really pyramids: some bar closes at least `pyramiding` trades
        const perExit = new Map<number, number>();
        for (const t of got) perExit.set(t.exitBar, (perExit.get(t.exitBar) ?? 0) + 1);
        expect(Math.max(...perExit.values())).toBeGreaterThanOrEqual(PYRAMIDING[name]);
      }
      for (const id of EXITS_SEEN[name] ?? [])
        expect(res.strategy!.trades.filter((t) => t.exit_id === id).length, id).toBeGreaterThan(20);
    }, 120_000);
  }
});
