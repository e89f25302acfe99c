// A bar column at a loop counter (plus or minus a constant) compared with the arithmetic of two numeric
// variables or a variable and a constant (`close[j] < close * 0.97`) as one generated closure
// (fused.generated.ts columnCompareExpr): read and computed in place when the offset is a past bar
// within the history limit, the general comparison for any other offset. Every comparison and
// arithmetic operator, both sides, na offsets and values, division by zero and the limit give what
// compile gives.
import { describe, expect, it } from "vitest";
import { COLUMN_HISTORY_LIMIT } from "../../src/check/history-limits.js";
import { columnPairBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

const OPS = ["<", "<=", ">", ">=", "==", "!="];
const ARITH = ["+", "-", "*", "/"];

/** Bars with na volumes here and there (a column operand's value na). */
function withNaVolume(n: number) {
  return bars(n).map((b, i) => (i % 4 === 1 ? { ...b, volume: Number.NaN } : b));
}

describe("a bar column compared with slot arithmetic (columnCompareExpr)", () => {
  for (const [dialect, wrap] of [
    ["v6", v6],
    ["v5", v5],
  ] as const)
    it(`every operator pair, both sides, slots and constants (${dialect}) equal compile`, async () => {
      const decls: string[] = [];
      const body: string[] = [];
      const plots: string[] = [];
      let n = 0;
      for (const o of OPS)
        for (const a of ARITH) {
          decls.push(`int c${n} = 0`);
          // (close[j] == close * 1.0 and close[j] == close - 0 hold at j = 0's bar: == is seen)
          body.push(`    if close[j] ${o} close ${a} 1.0\n        c${n} += 1`);
          body.push(`    if high[k] ${o} lo ${a} d\n        c${n} += 10`);
          body.push(`    c${n} += 2.0 ${a} d ${o} low[j + 1] ? 100 : 0`);
          plots.push(`plot(c${n}, "p${n}")`);
          n++;
        }
      const src = wrap(`${decls.join("\n")}
float lo = bar_index % 6 == 0 ? na : low
float d = bar_index % 5 == 0 ? 0.0 : 0.5
for j = 0 to 4
    int k = j == 2 ? na : j + 1
${body.join("\n")}
${plots.join("\n")}`);
      const before = columnPairBuilds.expr;
      const r = await runBoth(src, bars(40));
      expect(r.error).toBeUndefined();
      expect(columnPairBuilds.expr - before).toBe(3 * n);
      await keptRunsMatchCompile(src, bars(40));
    });

  it("na column values, a while condition and the limit equal compile", async () => {
    const src = v6(`int a = 0
int w = 0
float v = volume
for j = 1 to 3
    if volume[j] != v * 2
        a += 1
    if volume[j] <= v / 2
        a += 10
    int i = j
    while i >= 0 and volume[i] < v + 1000000
        w += 1
        i -= 1
plot(a, "a")
plot(w, "w")`);
    const before = columnPairBuilds.expr;
    const r = await runBoth(src, withNaVolume(30));
    expect(r.error).toBeUndefined();
    expect(columnPairBuilds.expr - before).toBe(3);
    await keptRunsMatchCompile(src, withNaVolume(30));
    const L = COLUMN_HISTORY_LIMIT;
    const over = await runBoth(
      v6(`int n = 0
int o = bar_index >= 1 ? ${L + 1} : 1
float t = 0.5
for j = 0 to 0
    if close[o] > close * t
        n += 1
plot(n, "n")`),
      bars(5),
    );
    expect(over.error_kind).toBe("runtime");
  });

  it("other operands keep the general form", async () => {
    const before = columnPairBuilds.expr;
    await runBoth(
      v6(`int n = 0
for j = 1 to 3
    if close[j] > 1.0 * 2.0
        n += 1
    if close[j] > close * high * 0.5
        n += 2
    if close[j] > close % 3
        n += 4
plot(n, "n")`),
      bars(20),
    );
    expect(columnPairBuilds.expr - before).toBe(0);
  });
});
