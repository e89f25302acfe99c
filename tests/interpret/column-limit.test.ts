// The in-place bar column reads at a loop counter (column-at.ts colAt, the fused operators' column
// operands, Compiler.columnAtSlotReader, the `high[j - 1]` reader and the fused math.max/min store)
// write the history limit as a literal, not COLUMN_HISTORY_LIMIT's binding (fewer bytecode bytes
// against V8's inlining budget). Each read at exactly the limit gives the bar's value, as compile
// does, and one past it is compile's runtime error on the same line.
import { describe, expect, it } from "vitest";
import { COLUMN_HISTORY_LIMIT } from "../../src/check/history-limits.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

const L = COLUMN_HISTORY_LIMIT;
// (each path on its own: the closure shapes the reads take in a loop body)
const READS = [
  "x := high[o] - low[o]", // fused operator, column operands read in place (colAt)
  "x := close[o]", // the column reader at a slot offset (columnAtSlotReader)
  "x := close[p + 1]", // a slot plus a constant (colShift)
  "x := math.max(x, high[o])", // fused math.max store
  "if high[o] > low[o] and close[p + 1] >= 0\n        x += 1", // a condition's reads
];

describe("in-place column reads at the history limit", () => {
  const data = bars(L + 3);

  it("read exactly the limit back (the same values as compile)", async () => {
    for (const read of READS) {
      const src = v6(`float x = 0.0
int o = bar_index >= ${L} ? ${L} : 0
int p = o - 1
for i = 0 to 0
    ${read}
plot(x, "x")`);
      const r = await runBoth(src, data);
      expect(r.error, read).toBeUndefined();
      const xs = r.series.x!;
      // the last bars read `L` bars back: a value of the synthetic data, not na
      expect(typeof xs[xs.length - 1], read).toBe("number");
    }
  });

  it("one past the limit, within the bars read, is compile's runtime error on the same line", async () => {
    for (const read of READS) {
      const src = v6(`float x = 0.0
int o = bar_index >= ${L + 1} ? ${L + 1} : 0
int p = o - 1
for i = 0 to 0
    ${read}
plot(x, "x")`);
      const r = await runBoth(src, data);
      expect(r.error_kind, read).toBe("runtime");
      expect(r.diagnostics?.[0]?.line, read).toBe(7);
    }
  });
});
