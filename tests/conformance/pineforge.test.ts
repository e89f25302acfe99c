// PineForge corpus conformance: every visible probe (tests/conformance/data/pineforge) run through the
// public Runtime in both modes, its trades compared with TradingView's List of trades under the
// corpus's rules (pineforge-data.ts). Per probe two tests: the modes agree trade for trade (always
// required), and the trades match TradingView (a probe that does not yet is `it.fails` with its
// reason, so it turns red the day it starts to pass). The overall score (trades matched / total,
// probes exact) is printed per category at the end.

import { afterAll, describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import type { RunResult } from "../../src/core/result.js";
import {
  loadProbe,
  PINEFORGE_SYMINFO,
  pineforgeFx,
  probeNames,
  probeRun,
  scoreProbe,
  type Probe,
  type ProbeScore,
} from "./pineforge-data.js";

/** probe -> why its trades do not match TradingView's yet. */
const EXPECTED_FAILURES: Record<string, string> = {
  "ta-pivot-atr-stop-target-01":
    "40 of 1618 trades: exits one bar later than ours at our exact level, or a few ticks off. Points to TradingView's bars differing from the corpus's OHLCV on those bars: trades 249 and 489 fill on a bar whose corpus low/high never reaches the level (low 2523.57 > 2520.75; high 3731.08 < 3734.14), and the late fills do not follow how far the bar crossed the level (fills crossing by < 0.5 match 111 times, are late 5 times)",
};

const results = new Map<string, Promise<{ interpret: RunResult; compile: RunResult }>>();

function runProbe(p: Probe): Promise<{ interpret: RunResult; compile: RunResult }> {
  let r = results.get(p.name);
  if (!r) {
    r = (async () => {
      const { bars, backtestStart } = probeRun(p);
      // TradingView's exports list every trade (some probes close more than 9000)
      const rt = new Runtime("BINANCE:ETHUSDT.P", {
        timeframe: "15",
        syminfo: PINEFORGE_SYMINFO,
        inputs: p.inputs,
        broker: { trade_limit: Infinity },
      });
      const options = { dataFeed: { "FX:USDTUSD": pineforgeFx() }, backtestStart };
      const interpret = await rt.run(p.script, bars, { ...options, mode: "interpret" });
      const compile = await rt.run(p.script, bars, { ...options, mode: "compile" });
      return { interpret, compile };
    })();
    results.set(p.name, r);
  }
  return r;
}

const scores = new Map<string, ProbeScore & { category: string }>();

function tradesOf(r: RunResult): unknown {
  return r.error ? r.error : [...(r.strategy?.trades ?? []), ...(r.strategy?.open_trades ?? [])];
}

describe("PineForge corpus: TradingView trade lists", () => {
  for (const name of probeNames()) {
    const p = loadProbe(name);
    if (p.unavailable) {
      it.skip(`${name} (${p.unavailable})`, () => {});
      continue;
    }
    it(`${name}: interpret and compile agree`, async () => {
      const { interpret, compile } = await runProbe(p);
      expect(interpret.error ?? null).toBeNull();
      expect(tradesOf(compile)).toEqual(tradesOf(interpret));
    });
    const reason = EXPECTED_FAILURES[name];
    (reason ? it.fails : it)(
      `${name}: trades match TradingView${reason ? ` (expected failure: ${reason})` : ""}`,
      async () => {
        const { interpret } = await runProbe(p);
        const s = scoreProbe(interpret.strategy, p.trades, probeRun(p).lastRow);
        scores.set(name, { ...s, category: p.category });
        expect(interpret.error ?? null).toBeNull();
        expect(s.mismatches, `${name}: ${s.matched}/${s.total}`).toEqual([]);
      },
    );
  }
});

afterAll(() => {
  const cats = new Map<string, { matched: number; total: number; exact: number; probes: number }>();
  const all = { matched: 0, total: 0, exact: 0, probes: 0 };
  const lines: string[] = [];
  for (const [name, s] of [...scores].sort()) {
    const c = cats.get(s.category) ?? { matched: 0, total: 0, exact: 0, probes: 0 };
    const exact = s.matched === s.total && s.ours === s.total ? 1 : 0;
    for (const x of [c, all]) {
      x.matched += s.matched;
      x.total += s.total;
      x.exact += exact;
      x.probes++;
    }
    cats.set(s.category, c);
    if (!exact)
      lines.push(
        `  ${name}: ${s.matched}/${s.total} (ours ${s.ours})${s.mismatches.length ? `\n      ${s.mismatches.join("\n      ")}` : ""}`,
      );
  }
  const pct = (x: { matched: number; total: number }) => ((100 * x.matched) / Math.max(1, x.total)).toFixed(1);
  const perCat = [...cats].map(([k, c]) => `${k} ${pct(c)}% (${c.exact}/${c.probes} exact)`).join(", ");
  console.log(
    `[pineforge] ${all.matched}/${all.total} TradingView trades matched (${pct(all)}%), ${all.exact}/${all.probes} probes exact\n  ${perCat}\n${lines.join("\n")}`,
  );
});
