// Strategy conformance: TradingView's exported List of trades for every case under
// tests/conformance/data/tradingview/strategy, compared row by row (entry/exit time, direction,
// signal, prices to mintick, size, net P&L, run-up, drawdown, cumulative P&L to the export's rounding).
//
// Two drivers:
//  1. direct: each case's strategy replayed in TypeScript against the broker API (tests/strategy/replays.ts),
//     which proves the broker emulator independently of the interpreter;
//  2. runtime: script.pine through the public Runtime (src/runtime/index.ts), in both modes, once it exists.
//
// A case that does not match fully yet is listed in EXPECTED_FAILURES with its reason (and in
// docs/compatibility.md); its test is `it.fails`, so it turns red the day it starts to pass.

import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareTrades, loadCase, syminfoOf, type CaseData } from "../strategy/harness.js";
import { CASES, REPLAYS } from "../strategy/replays.js";
import type { StrategyResult } from "../../src/core/result.js";

/** case -> why it does not match yet (direct replay). */
const EXPECTED_FAILURES: Record<string, string> = {};

/** case -> why it does not match yet through the Runtime (in addition to EXPECTED_FAILURES). */
const RUNTIME_EXPECTED_FAILURES: Record<string, string> = {};

const scores: string[] = [];

function check(name: string, data: CaseData, result: StrategyResult, label: string): void {
  const cmp = compareTrades(result, data.trades, data.settings.symbol.mintick as number);
  scores.push(`${label} ${name}: ${cmp.matched}/${cmp.total} trades matched`);
  console.log(
    `[strategy conformance] ${label} ${name}: ${cmp.matched}/${cmp.total} trades matched${cmp.mismatches.length ? "\n  " + cmp.mismatches.join("\n  ") : ""}`,
  );
  expect(cmp.mismatches, `${name}: ${cmp.matched}/${cmp.total}`).toEqual([]);
  expect(cmp.matched).toBe(cmp.total);
}

describe("strategy conformance: direct broker replay", () => {
  for (const name of CASES) {
    const reason = EXPECTED_FAILURES[name];
    const test = reason ? it.fails : it;
    test(`${name}${reason ? ` (expected failure: ${reason})` : ""}`, () => {
      const data = loadCase(name);
      check(name, data, REPLAYS[name](data), "direct");
    });
  }
});

/** Why a Runtime run could not reach the broker because another part is not built yet, else null. */
function pendingDependency(res: { error?: string; error_kind?: string }): string | null {
  if (!res.error) return null;
  if (res.error_kind === "check" && /not implemented yet/.test(res.error)) return `needs ${res.error}`;
  if (res.error_kind === "mode" || res.error_kind === "compile") return `backend unavailable: ${res.error}`;
  return null;
}

const runtimePath = new URL("../../src/runtime/index.ts", import.meta.url);
const haveRuntime = existsSync(runtimePath);

describe.skipIf(!haveRuntime)("strategy conformance: through the Runtime", () => {
  for (const name of CASES) {
    for (const mode of ["interpret", "compile"] as const) {
      const reason = EXPECTED_FAILURES[name] ?? RUNTIME_EXPECTED_FAILURES[name];
      const test = reason ? it.fails : it;
      test(`${name} [${mode}]${reason ? ` (expected failure: ${reason})` : ""}`, async (tctx) => {
        const data = loadCase(name);
        const { Runtime } = await import("../../src/runtime/index.js");
        const bars = Array.from({ length: data.cols.time.length }, (_, i) => ({
          time: data.cols.time[i],
          open: data.cols.open[i],
          high: data.cols.high[i],
          low: data.cols.low[i],
          close: data.cols.close[i],
          volume: data.cols.volume[i],
        }));
        const sym = data.settings.symbol;
        const rt = new Runtime("CHART", {
          timeframe: String(sym.timeframe ?? "60").split(" ")[0],
          syminfo: syminfoOf(sym),
          inputs: data.settings.inputs,
        });
        const options: Record<string, unknown> = { mode };
        if (name === "bar_magnifier") {
          // as a user would: the exported CSV (unix seconds) parsed by the public loader, keyed "SYMBOL|TF"
          const { CONFORMANCE } = await import("../strategy/harness.js");
          const { parseCsvBars } = await import("../../src/core/bars.js");
          const { readData } = await import("../helpers/data.js");
          const sub = parseCsvBars(readData(new URL("bar_magnifier/ohlcv_60m.csv", CONFORMANCE)));
          options.dataFeed = { "CHART|60": sub };
        }
        const res = await rt.run(data.script, bars, options);
        // A builtin or backend that has not landed yet is not a broker result: reported as skipped, with why.
        const missing = pendingDependency(res);
        if (missing) {
          scores.push(`runtime/${mode} ${name}: skipped (${missing})`);
          tctx.skip(missing);
          return;
        }
        expect(res.error ?? null).toBeNull();
        expect(res.strategy).toBeDefined();
        check(name, data, res.strategy as StrategyResult, `runtime/${mode}`);
      });
    }
  }
});
