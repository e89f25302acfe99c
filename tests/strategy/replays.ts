// The conformance cases' strategies replayed in TypeScript against the broker API: indicators are
// computed with ta.ts, the strategy.* calls made exactly as each script.pine makes them. This proves
// the broker against TradingView's trade lists independently of the interpreter.

import { readFileSync } from "node:fs";
import type { StrategyResult } from "../../src/core/result.js";
import { CONFORMANCE, loadCase, makeCtx, readOhlcv, replay, syminfoOf, type CaseData } from "./harness.js";
import { crossover, crossunder, ema, highest, lowest, rsi, sma, stdev } from "./ta.js";

type Replayer = (c: CaseData) => StrategyResult;

function run(
  c: CaseData,
  script: Parameters<typeof replay>[2],
  opts: { barMs?: number; ext?: Record<string, unknown> } = {},
  setup?: Parameters<typeof replay>[3],
): StrategyResult {
  const ctx = makeCtx(c.cols, syminfoOf(c.settings.symbol), opts);
  return replay(ctx, c.settings.strategy, script, setup).result;
}

export const REPLAYS: Record<string, Replayer> = {
  barupdn(c) {
    const close = c.cols.close;
    const open = c.cols.open;
    return run(
      c,
      (i, ctx, b) => {
        if (i < 1) return;
        if (close[i] > open[i] && open[i] > close[i - 1]) b.entry({ id: "BarUp", direction: "long" }, ctx);
        if (close[i] < open[i] && open[i] < close[i - 1]) b.entry({ id: "BarDn", direction: "short" }, ctx);
      },
      {},
      (b) => {
        b.risk.maxIntradayLoss = 1;
        b.risk.maxIntradayLossType = "percent_of_equity";
      },
    );
  },

  bollinger(c) {
    const src = c.cols.close;
    const basis = sma(src, 20);
    const dev = stdev(src, 20);
    const upper = basis.map((v, i) => v + 2 * dev[i]);
    const lower = basis.map((v, i) => v - 2 * dev[i]);
    return run(c, (i, ctx, b) => {
      if (crossover(src, lower, i))
        b.entry(
          {
            id: "BBandLE",
            direction: "long",
            stop: lower[i],
            ocaName: "BollingerBands",
            ocaType: "cancel",
            comment: "BBandLE",
          },
          ctx,
        );
      else b.cancel("BBandLE", ctx);
      if (crossunder(src, upper, i))
        b.entry(
          {
            id: "BBandSE",
            direction: "short",
            stop: upper[i],
            ocaName: "BollingerBands",
            ocaType: "cancel",
            comment: "BBandSE",
          },
          ctx,
        );
      else b.cancel("BBandSE", ctx);
    });
  },

  channelbreakout(c) {
    const up = highest(c.cols.high, 5);
    const dn = lowest(c.cols.low, 5);
    const mt = c.settings.symbol.mintick as number;
    return run(c, (i, ctx, b) => {
      if (i >= 5) b.entry({ id: "ChBrkLE", direction: "long", stop: up[i] + mt, comment: "ChBrkLE" }, ctx);
      b.entry({ id: "ChBrkSE", direction: "short", stop: dn[i] - mt, comment: "ChBrkSE" }, ctx);
    });
  },

  rsi(c) {
    const v = rsi(c.cols.close, 14);
    return run(c, (i, ctx, b) => {
      if (v[i] !== v[i]) return;
      if (crossover(v, 30, i)) b.entry({ id: "RsiLE", direction: "long", comment: "RsiLE" }, ctx);
      if (crossunder(v, 70, i)) b.entry({ id: "RsiSE", direction: "short", comment: "RsiSE" }, ctx);
    });
  },

  macd(c) {
    const close = c.cols.close;
    const fast = ema(close, 12);
    const slow = ema(close, 26);
    const macd = fast.map((v, i) => v - slow[i]);
    const signal = ema(macd, 9);
    const delta = macd.map((v, i) => v - signal[i]);
    return run(c, (i, ctx, b) => {
      if (crossover(delta, 0, i)) b.entry({ id: "MacdLE", direction: "long", comment: "MacdLE" }, ctx);
      if (crossunder(delta, 0, i)) b.entry({ id: "MacdSE", direction: "short", comment: "MacdSE" }, ctx);
    });
  },

  futures_pnl(c) {
    const fast = sma(c.cols.close, 10);
    const slow = sma(c.cols.close, 30);
    return run(c, (i, ctx, b) => {
      if (crossover(fast, slow, i)) b.entry({ id: "L", direction: "long" }, ctx);
      if (crossunder(fast, slow, i)) b.entry({ id: "S", direction: "short" }, ctx);
    });
  },

  slippage_basic(c) {
    return run(c, (i, ctx, b) => {
      if (i === 10) b.entry({ id: "Long", direction: "long", comment: "Long Entry" }, ctx);
      if (i === 20) b.close({ id: "Long", comment: "Long Exit" }, ctx);
      if (i === 40) b.entry({ id: "Short", direction: "short", comment: "Short Entry" }, ctx);
      if (i === 50) b.close({ id: "Short", comment: "Short Exit" }, ctx);
    });
  },

  slippage_direction(c) {
    return run(c, (i, ctx, b) => {
      const since = i - 20;
      if (i >= 20 && since % 10 === 0) {
        const n = since / 10;
        if (n % 2 === 0) b.entry({ id: "Long", direction: "long", comment: `Flip to Long #${n}` }, ctx);
        else b.entry({ id: "Short", direction: "short", comment: `Flip to Short #${n}` }, ctx);
      }
    });
  },

  slippage_pyramiding(c) {
    return run(c, (i, ctx, b) => {
      if (i >= 20 && i <= 30 && (i - 20) % 5 === 0) {
        const n = (i - 20) / 5 + 1;
        b.entry({ id: `Long ${n}`, direction: "long", comment: `Entry #${n}` }, ctx);
      }
      if (i === 40) b.close({ comment: "Close All Positions" }, ctx, true);
    });
  },

  bar_magnifier(c) {
    const close = c.cols.close;
    const fast = sma(close, 3);
    const slow = sma(close, 10);
    const sub = readOhlcv(new URL("bar_magnifier/ohlcv_60m.csv", CONFORMANCE));
    return run(
      c,
      (i, ctx, b) => {
        if (crossover(fast, slow, i)) {
          b.entry({ id: "Long", direction: "long" }, ctx);
          b.exit({ id: "XL", fromEntry: "Long", limit: close[i] + 1500, stop: close[i] - 1000 }, ctx);
        }
        if (crossunder(fast, slow, i)) {
          b.entry({ id: "Short", direction: "short" }, ctx);
          b.exit({ id: "XS", fromEntry: "Short", limit: close[i] - 1500, stop: close[i] + 1000 }, ctx);
        }
      },
      { barMs: 86_400_000, ext: { magnifierBars: sub } },
    );
  },
};

export const CASES = Object.keys(REPLAYS);

export function loadAndReplay(name: string): { data: CaseData; result: StrategyResult } {
  const data = loadCase(name);
  return { data, result: REPLAYS[name](data) };
}

void readFileSync;
