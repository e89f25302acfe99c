// The Pine Logs exact-ulp probes for ta.* (logs/ta_test_*, math_test_002_math_sum_na,
// math_test_004) through the public Runtime, both modes: messages must equal TradingView's exactly.
// These chose the kernels' summation strategies (see assembly/avg.ts).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/result.js";
import { CONFORMANCE, splitCsvLine } from "../helpers/conformance.js";
import { readData } from "../helpers/data.js";
import { runBoth } from "../helpers/run-both.js";

const CASES = [
  "math_test_002_math_sum_na",
  "math_test_004_math_sum_flat_exact",
  "ta_test_112_cross_adjacent",
  "ta_test_241_tolerant_compare",
  "ta_test_242_percentile_change_exact",
  "ta_test_243_variance_stdev_exact",
  "ta_test_244_correlation_exact",
  "ta_test_245_ema_rma_exact",
  "ta_test_246_wma_exact",
];

function load(name: string): { script: string; bars: Bar[]; expected: string[] } {
  const dir = join(CONFORMANCE, "logs", name);
  const lines = readData(join(dir, "ohlcv.csv"))
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const bars: Bar[] = lines.slice(1).map((l) => {
    const r = splitCsvLine(l);
    return {
      time: Number(r[0]) * 1000,
      open: Number(r[1]),
      high: Number(r[2]),
      low: Number(r[3]),
      close: Number(r[4]),
      volume: Number(r[5]),
    };
  });
  const expected = (JSON.parse(readData(join(dir, "expected.json"))) as { message: string }[]).map((x) => x.message);
  return { script: readData(join(dir, "script.pine")), bars, expected };
}

describe("ta Pine Logs probes", () => {
  for (const name of CASES) {
    it(name, async () => {
      const c = load(name);
      const r = await runBoth(c.script, c.bars, {
        runtime: { syminfo: { mintick: 1e-5, timezone: "UTC", session: "24x7" } },
      });
      expect(r.error, `${r.error_kind}: ${r.error}`).toBeUndefined();
      // The numbers are what these probes pin; str.format's digit grouping is checked by
      // tests/conformance/logs.test.ts, so grouping commas are ignored here.
      const ungroup = (m: string) => m.replace(/(\d),(?=\d{3}\b)/g, "$1");
      const got = r.logs.map((l) => ungroup(l.message));
      expect(got).toEqual(c.expected.map(ungroup));
    });
  }
});
