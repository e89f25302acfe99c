// `na(col[k])` of a bar column at a loop counter, plus or minus a constant, as one generated closure
// (fused.generated.ts columnNa): the value read and tested in place when the offset is a past bar
// within the history limit, the general na closure for any other offset (na, 0, before the first
// bar, negative, over the limit). In a flat if's condition, in values and in while conditions, with
// na column values, it gives what compile gives.
import { describe, expect, it } from "vitest";
import { COLUMN_HISTORY_LIMIT } from "../../src/check/history-limits.js";
import { columnPairBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

/** Bars with na volumes here and there (a column operand's value na). */
function withNaVolume(n: number) {
  return bars(n).map((b, i) => (i % 4 === 1 ? { ...b, volume: Number.NaN } : b));
}

describe("na of a bar column at a slot offset (columnNa)", () => {
  it("counts the offsets before the first bar as na, offset 0 included, as compile", async () => {
    const src = v6(`int n = 0
for j = 0 to 4
    if na(close[j])
        n += 1
plot(n, "n")`);
    const before = columnPairBuilds.na;
    const r = await runBoth(src, bars(8));
    expect(r.error).toBeUndefined();
    expect(columnPairBuilds.na - before).toBe(1);
    // bar b: offsets b+1..4 are before the first bar
    expect(r.series.n).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    await keptRunsMatchCompile(src, bars(8));
  });

  for (const [dialect, wrap] of [
    ["v6", v6],
    ["v5", v5],
  ] as const)
    it(`na values, na and shifted offsets, values and while conditions (${dialect}) equal compile`, async () => {
      const src = wrap(`int a = 0
int b = 0
int w = 0
for j = 0 to 4
    int k = j == 2 ? na : j + 1
    if na(volume[j + 1])
        a += 1
    if na(volume[k])
        a += 10
    bool x = na(high[j - 1])
    b += x ? 1 : 0
    int i = j
    while i >= 0 and not na(volume[i])
        w += 1
        i -= 1
plot(a, "a")
plot(b, "b")
plot(w, "w")`);
      const before = columnPairBuilds.na;
      const r = await runBoth(src, withNaVolume(30));
      expect(r.error).toBeUndefined();
      expect(columnPairBuilds.na - before).toBe(4);
      // (na volumes are seen: a counts some)
      expect(r.series.a!.some((v) => typeof v === "number" && v % 10 > 0)).toBe(true);
      await keptRunsMatchCompile(src, withNaVolume(30));
    });

  it("an offset over the history limit raises as compile; a negative one gives what compile gives", async () => {
    const L = COLUMN_HISTORY_LIMIT;
    const over = await runBoth(
      v6(`int n = 0
int o = bar_index >= 1 ? ${L + 1} : 1
for j = 0 to 0
    if na(close[o])
        n += 1
plot(n)`),
      bars(5),
    );
    expect(over.error_kind).toBe("runtime");
    const negative = await runBoth(
      v6(`int n = 0
for j = 0 to 1
    if na(close[j - 1])
        n += 1
plot(n, "n")`),
      bars(5),
    );
    expect(negative.error_kind).toBe(undefined);
    expect(negative.series.n).toEqual([1, 1, 1, 1, 1]);
  });
});
