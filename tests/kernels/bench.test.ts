// benchKernels returns one row per kernel with finite positive timings (no timing assertions).
import { describe, expect, it } from "vitest";
import { benchKernels } from "../../src/kernels/bench.js";

describe("benchKernels", () => {
  it("reports ns/bar for every whole-series kernel, WASM and JS", async () => {
    const rows = await benchKernels(2000);
    expect(rows.map((r) => r.kernel)).toEqual([
      "sma",
      "ema",
      "rma",
      "wma",
      "stdev",
      "highest",
      "lowest",
      "tr",
      "atr",
      "rsi",
      "change",
    ]);
    for (const r of rows) {
      for (const v of [r.wasm_series_ns, r.wasm_per_bar_ns, r.js_ns]) {
        expect(Number.isFinite(v)).toBe(true);
        expect(v).toBeGreaterThan(0);
      }
    }
  });
});
