// /backtest/quick: a demo SMA-crossover simulator, independent of any script (service.md 2.4).
// Long when the fast SMA crosses above the slow one, short (or flat) on the cross below; orders fill
// at the next bar's open (slippage in price units against us, commission as a percent of notional
// per side); the open position is closed at the last close. Position size: all equity.

import type { Bar } from "../core/result.js";

export interface QuickBacktestParams {
  fast: number;
  slow: number;
  initial_capital: number;
  commission_pct: number;
  slippage: number;
  allow_short: boolean;
}

export interface QuickTrade {
  entry_time: number;
  entry_price: number;
  exit_time: number;
  exit_price: number;
  direction: "long" | "short";
  qty: number;
  pnl: number;
  pnl_pct: number;
}

export interface QuickBacktestResult {
  trades: QuickTrade[];
  equity: number[];
  summary: {
    total_pnl: number;
    total_pnl_pct: number;
    max_drawdown: number;
    max_drawdown_pct: number;
    win_rate: number | null;
    profit_factor: number | null;
    total_trades: number;
    sharpe_ratio: number | null;
  };
}

function sma(close: Float64Array, len: number): Float64Array {
  const out = new Float64Array(close.length).fill(NaN);
  let sum = 0;
  for (let i = 0; i < close.length; i++) {
    sum += close[i] as number;
    if (i >= len) sum -= close[i - len] as number;
    if (i >= len - 1) out[i] = sum / len;
  }
  return out;
}

interface Position {
  dir: 1 | -1;
  qty: number;
  entryPrice: number;
  entryTime: number;
  entryFee: number;
}

export function quickBacktest(bars: readonly Bar[], p: QuickBacktestParams): QuickBacktestResult {
  const n = bars.length;
  const close = Float64Array.from(bars, (b) => b.close);
  const fast = sma(close, p.fast);
  const slow = sma(close, p.slow);
  const fee = p.commission_pct / 100;
  const trades: QuickTrade[] = [];
  const equity: number[] = new Array(n);
  let cash = p.initial_capital;
  const st: { pos: Position | null } = { pos: null };
  let pending: 1 | -1 | 0 | null = null; // target direction decided on the previous bar

  const close_ = (price: number, time: number): void => {
    const pos = st.pos;
    if (!pos) return;
    const fill = price - pos.dir * p.slippage;
    const exitFee = fill * pos.qty * fee;
    const gross = (fill - pos.entryPrice) * pos.qty * pos.dir;
    const pnl = gross - pos.entryFee - exitFee;
    cash += gross - exitFee;
    trades.push({
      entry_time: pos.entryTime,
      entry_price: pos.entryPrice,
      exit_time: time,
      exit_price: fill,
      direction: pos.dir > 0 ? "long" : "short",
      qty: pos.qty,
      pnl,
      pnl_pct: (pnl / (pos.entryPrice * pos.qty)) * 100,
    });
    st.pos = null;
  };
  const open_ = (dir: 1 | -1, price: number, time: number): void => {
    const fill = price + dir * p.slippage;
    if (!(fill > 0) || !(cash > 0)) return;
    const qty = cash / (fill * (1 + fee));
    const entryFee = fill * qty * fee;
    cash -= entryFee;
    st.pos = { dir, qty, entryPrice: fill, entryTime: time, entryFee };
  };

  for (let i = 0; i < n; i++) {
    const bar = bars[i] as Bar;
    if (pending !== null) {
      const want = pending;
      pending = null;
      const cur = st.pos;
      if (!cur || cur.dir !== want) {
        close_(bar.open, bar.time);
        if (want !== 0) open_(want, bar.open, bar.time);
      }
    }
    if (i > 0) {
      const f0 = fast[i - 1] as number,
        s0 = slow[i - 1] as number,
        f1 = fast[i] as number,
        s1 = slow[i] as number;
      if (f1 > s1 && f0 <= s0) pending = 1;
      else if (f1 < s1 && f0 >= s0) pending = p.allow_short ? -1 : 0;
    }
    if (i === n - 1) close_(bar.close, bar.time);
    const open = st.pos;
    equity[i] = cash + (open ? (bar.close - open.entryPrice) * open.qty * open.dir : 0);
  }
  return { trades, equity, summary: summarize(trades, equity, p.initial_capital, bars) };
}

function summarize(
  trades: QuickTrade[],
  equity: number[],
  capital: number,
  bars: readonly Bar[],
): QuickBacktestResult["summary"] {
  const final = equity.length ? (equity[equity.length - 1] as number) : capital;
  let peak = capital;
  let maxDd = 0;
  let maxDdPct = 0;
  for (const e of equity) {
    if (e > peak) peak = e;
    maxDd = Math.max(maxDd, peak - e);
    if (peak > 0) maxDdPct = Math.max(maxDdPct, ((peak - e) / peak) * 100);
  }
  let wins = 0,
    gp = 0,
    gl = 0;
  for (const t of trades) {
    if (t.pnl > 0) {
      wins++;
      gp += t.pnl;
    } else gl -= t.pnl;
  }
  return {
    total_pnl: final - capital,
    total_pnl_pct: ((final - capital) / capital) * 100,
    max_drawdown: maxDd,
    max_drawdown_pct: maxDdPct,
    win_rate: trades.length ? wins / trades.length : null,
    profit_factor: gl > 0 ? gp / gl : null,
    total_trades: trades.length,
    sharpe_ratio: sharpe(equity, capital, bars),
  };
}

// Sharpe of per-bar equity returns, annualised from the median bar spacing (markets assumed 24x7).
function sharpe(equity: number[], capital: number, bars: readonly Bar[]): number | null {
  if (equity.length < 3) return null;
  const rets: number[] = [];
  let prev = capital;
  for (const e of equity) {
    rets.push(prev > 0 ? e / prev - 1 : 0);
    prev = e;
  }
  const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
  const sd = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / (rets.length - 1));
  if (!(sd > 0)) return null;
  const gaps = bars
    .slice(1)
    .map((b, i) => b.time - (bars[i] as Bar).time)
    .sort((a, b) => a - b);
  const spacing = gaps[Math.floor(gaps.length / 2)] ?? 86_400_000;
  const perYear = spacing > 0 ? (365 * 86_400_000) / spacing : 365;
  return (mean / sd) * Math.sqrt(perYear);
}

/** Index of the first bar that is not a usable OHLC bar, or -1. */
export function firstBadBar(data: readonly unknown[]): number {
  let prevTime = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const b = data[i] as Record<string, unknown> | null;
    if (!b || typeof b !== "object") return i;
    const t = b.time,
      o = b.open,
      h = b.high,
      l = b.low,
      c = b.close;
    if (![t, o, h, l, c].every((x) => typeof x === "number" && Number.isFinite(x))) return i;
    if ((t as number) <= prevTime || (h as number) < (l as number)) return i;
    prevTime = t as number;
  }
  return -1;
}
