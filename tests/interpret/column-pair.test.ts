// `a op b and c op d` (`or`) on four bar columns at a loop counter, plus or minus a constant, as one
// generated closure per operator pair (fused.generated.ts columnPair): the reads and comparisons in
// place when every offset is a past bar within the history limit, the general and/or closure for any
// other offset. Each operator pair, both joins, v5's eager and v6's lazy forms, na offsets and na
// values, offset 0, offsets before the first bar and over the limit give what compile gives.
import { describe, expect, it } from "vitest";
import { COLUMN_HISTORY_LIMIT } from "../../src/check/history-limits.js";
import { columnPairBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

const OPS = ["<", "<=", ">", ">=", "==", "!="];

/** A script of one `if` per operator pair, each adding to its own counter, in a loop over offsets 0-4. */
function pairs(join: "and" | "or", na: boolean): { body: string; n: number } {
  const ifs: string[] = [];
  const decls: string[] = [];
  const plots: string[] = [];
  let n = 0;
  for (const o1 of OPS)
    for (const o2 of OPS) {
      decls.push(`int c${n} = 0`);
      // close[j] and close[k - 1] are the same bar (== holds), high/low a bar apart
      ifs.push(`    if close[j] ${o1} close[k - 1] ${join} high[j + 1] ${o2} low[k]\n        c${n} += j + 1`);
      plots.push(`plot(c${n}, "p${n}")`);
      n++;
    }
  const k = na ? "int k = j == 2 ? na : j + 1" : "int k = j + 1";
  return { body: `${decls.join("\n")}\nfor j = 0 to 4\n    ${k}\n${ifs.join("\n")}\n${plots.join("\n")}`, n };
}

/** Bars with na volumes here and there (a column operand's value na). */
function withNaVolume(n: number) {
  return bars(n).map((b, i) => (i % 4 === 1 ? { ...b, volume: Number.NaN } : b));
}

describe("and/or of two comparisons on four bar columns (columnPair)", () => {
  for (const join of ["and", "or"] as const)
    for (const [dialect, wrap] of [
      ["v6", v6],
      ["v5", v5],
    ] as const)
      it(`every operator pair with ${join} (${dialect}) equals compile, the first bars and offset 0 included`, async () => {
        const { body, n } = pairs(join, false);
        const before = columnPairBuilds.count;
        const r = await runBoth(wrap(body), bars(40));
        expect(r.error).toBeUndefined();
        expect(columnPairBuilds.count - before).toBe(n);
        // (the == pairs do hold somewhere: the same bar read through two offsets)
        expect(r.series.p26!.some((v) => v !== 0)).toBe(true);
        await keptRunsMatchCompile(wrap(body), bars(40));
      });

  it("na offsets and na column values equal compile", async () => {
    for (const join of ["and", "or"] as const) {
      const { body } = pairs(join, true);
      await runBoth(v6(body), bars(30));
      const src = v6(`int a = 0
int b = 0
for j = 0 to 3
    if volume[j] != volume[j + 1] ${join} volume[j] == volume[j]
        a += 1
    if volume[j] >= volume[j + 1] ${join} volume[j + 2] < volume[j]
        b += 1
plot(a, "a")
plot(b, "b")`);
      const before = columnPairBuilds.count;
      const r = await runBoth(src, withNaVolume(30));
      expect(r.error).toBeUndefined();
      expect(columnPairBuilds.count - before).toBe(2);
      await keptRunsMatchCompile(src, withNaVolume(30));
    }
  });

  it("an offset over the history limit: v6's lazy and skips it after a false left side, v5's eager and raises, as compile", async () => {
    const L = COLUMN_HISTORY_LIMIT;
    // the right side's offset is over the limit from the second bar on; the left side is false
    const body = (join: string) => `int n = 0
int o = bar_index >= 1 ? ${L + 5} : 1
for j = 1 to 1
    if close[j] > close[j] ${join} high[o] > low[o - 1]
        n += 1
plot(n, "n")`;
    const lazy = await runBoth(v6(body("and")), bars(5));
    expect(lazy.error).toBeUndefined();
    const eager = await runBoth(v5(body("and")), bars(5));
    expect(eager.error_kind).toBe("runtime");
    expect(eager.diagnostics?.[0]?.line).toBe(6);
    // `or` after a true left side: v6 skips the right, v5 raises
    const orBody = body("or").replace("close[j] > close[j]", "close[j] == close[j]");
    expect((await runBoth(v6(orBody), bars(5))).error).toBeUndefined();
    expect((await runBoth(v5(orBody), bars(5))).error_kind).toBe("runtime");
  });

  it("a comparison of two bar columns (columnCompare), every operator, in ifs, whiles and values, equals compile", async () => {
    const ifs = OPS.map(
      (o, n) =>
        `    if close[j] ${o} close[k - 1]\n        c${n} += j + 1\n    d${n} := high[j + 1] ${o} low[k] ? d${n} + 1 : d${n}`,
    );
    const src = (na: boolean) =>
      v6(`${OPS.map((_, n) => `int c${n} = 0\nint d${n} = 0`).join("\n")}
int w = 0
for j = 0 to 4
    int k = ${na ? "j == 2 ? na : j + 1" : "j + 1"}
${ifs.join("\n")}
    int i = j
    while i >= 0 and close[i] <= close[i + 1]
        w += 1
        i -= 1
${OPS.map((_, n) => `plot(c${n} + d${n} * 100, "p${n}")`).join("\n")}
plot(w, "w")`);
    for (const na of [false, true]) {
      const before = columnPairBuilds.compare;
      const r = await runBoth(src(na), bars(40));
      expect(r.error).toBeUndefined();
      expect(columnPairBuilds.compare - before).toBeGreaterThanOrEqual(2 * OPS.length + 1);
      await keptRunsMatchCompile(src(na), bars(40));
    }
    // na values, and the limit: one past it within the bars read is compile's error
    const nav = v6(`int a = 0
for j = 1 to 3
    if volume[j] != volume[j + 1]
        a += 1
    if volume[j] == volume[j - 1 + 1]
        a += 10
plot(a, "a")`);
    await runBoth(nav, withNaVolume(30));
    const L = COLUMN_HISTORY_LIMIT;
    const over = await runBoth(
      v6(`int n = 0
int o = bar_index >= ${L + 1} ? ${L + 1} : 1
for j = 0 to 0
    if close[o] > close[o - 1]
        n += 1
plot(n)`),
      bars(L + 3),
    );
    expect(over.error_kind).toBe("runtime");
  });

  it("a bar column against a variable or a constant (columnCompare XS, SX, XC, CX), every operator, equals compile", async () => {
    const ifs = OPS.map(
      (o, n) =>
        `    if high[j] ${o} hh\n        a${n} += 1\n    if lv ${o} low[k]\n        b${n} += 1\n    if close[j + 1] ${o} 100.0\n        c${n} += 1\n    d${n} := 100.0 ${o} close[k - 1] ? d${n} + 1 : d${n}`,
    );
    const src = (na: boolean) =>
      v6(`${OPS.map((_, n) => `int a${n} = 0\nint b${n} = 0\nint c${n} = 0\nint d${n} = 0`).join("\n")}
float hh = high
float lv = bar_index % 5 == 0 ? na : low[1]
for j = 0 to 4
    int k = ${na ? "j == 2 ? na : j + 1" : "j + 1"}
${ifs.join("\n")}
    hh := math.max(hh, high[j])
${OPS.map((_, n) => `plot(a${n} + b${n} * 10 + c${n} * 100 + d${n} * 1000, "p${n}")`).join("\n")}`);
    for (const na of [false, true]) {
      const before = columnPairBuilds.compare;
      const r = await runBoth(src(na), bars(40));
      expect(r.error).toBeUndefined();
      expect(columnPairBuilds.compare - before).toBeGreaterThanOrEqual(4 * OPS.length);
      await keptRunsMatchCompile(src(na), bars(40));
    }
    await runBoth(
      v6(`int a = 0
for j = 1 to 3
    if volume[j] != 1.0
        a += 1
    if volume[j] == volume[j] and volume[j - 1] > 0
        a += 10
plot(a, "a")`),
      withNaVolume(30),
    );
  });

  it("other operands keep the general form", async () => {
    const before = columnPairBuilds.count;
    await runBoth(
      v6(`int n = 0
float t = 1.0
for j = 1 to 3
    if close[j] > t and high[j] > low[j]
        n += 1
    if close[j] > close[j + 1] and high[j] > low[j] + 0.5
        n += 2
plot(n)`),
      bars(20),
    );
    expect(columnPairBuilds.count - before).toBe(0);
  });
});
