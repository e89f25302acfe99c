// Test helpers: a fake trial runner that turns parameters into closed trades through an injected
// objective, so the study loop can be tested without the interpreter.

import type { Bar, RunResult, Trade } from "../../src/core/result.js";

export function syntheticBars(n: number): Bar[] {
  return Array.from({ length: n }, (_, i) => {
    const open = 100 + i;
    const close = open + (i % 3 === 2 ? -0.5 : 1);
    return {
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.8,
      close,
      volume: 1000 + i,
    };
  });
}

export function trade(profit: number, exitBar: number): Trade {
  return {
    trade_num: 0,
    entry_id: "L",
    entry_bar_index: Math.max(0, exitBar - 1),
    entry_time: 0,
    entry_price: 1,
    entry_comment: null,
    exit_id: "x",
    exit_bar_index: exitBar,
    exit_time: 0,
    exit_price: 1,
    exit_comment: null,
    direction: "long",
    qty: 1,
    profit,
    profit_percent: 0,
    cum_profit: 0,
    run_up: 0,
    run_up_percent: 0,
    drawdown: 0,
    drawdown_percent: 0,
    commission: 0,
  };
}

export function fakeResult(trades: Trade[], extra: Partial<RunResult> = {}): RunResult {
  return {
    mode: "interpret",
    count: 0,
    series: {},
    plots: [],
    plot_meta: {},
    events: [],
    strategy: { trades, open_trades: [], stats: {} as never, equity: [] },
    drawings: [],
    alerts: [],
    alert_conditions: [],
    inputs: [],
    logs: [],
    profile: { total_ms: 0, bars: 0, mode: "interpret", phases: { parse_ms: 0, check_ms: 0, eval_ms: 0 } },
    overlay: true,
    script_name: "t",
    script_type: "strategy",
    script_id: "0",
    run_id: "0",
    meta: {},
    ...extra,
  };
}

export const STRATEGY = '//@version=6\nstrategy("t")\nlen = input.int(10, "Length", minval=2, maxval=50)\n';
