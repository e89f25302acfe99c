// The flat if's driver (drivers.generated.ts ifFlat, Compiler.ifFlat): a closure of its own per
// condition kind (a bool slot, each comparison, `na(x)`, another closure) with or without an else
// branch, so a loop driver that inlines it counts only its own paths against V8's inlining budget;
// `if na(x)` tests x !== x in the driver, with no na closure between. Every kind, branch kind and
// na operand must give exactly what the compile backend gives, on first and kept-closure runs.
import { describe, expect, it } from "vitest";
import { columnPairBuilds, ifNaBuilds } from "../../src/interpret/compiler.js";
import { DRIVER_COPIES, ifFlat, type IfFlat } from "../../src/interpret/drivers.generated.js";
import type { Flow } from "../../src/interpret/memo.js";
import { bars, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

describe("flat if drivers", () => {
  it("every condition kind, with and without else, each branch kind, equals compile", async () => {
    const conds = [
      "close[i] < open[i]",
      "close[i] <= d",
      "d > open[i]",
      "d >= 1.0",
      "d == d[1]",
      "d != 2.0",
      "na(d)",
      "na(close[i + 3])",
      "na(d + close[i])",
      "na(n)",
      "up",
      "not na(d)",
      "close[i] > open[i] and d > 0",
    ];
    const parts: string[] = [];
    conds.forEach((c, k) => {
      parts.push(`    if ${c}\n        a${k} += 1`);
      parts.push(`    if ${c}\n        b${k} += 1\n    else\n        b${k} -= 2`);
      parts.push(`    if ${c}\n        continue\n    else\n        e${k} += 1`);
      parts.push(`    if ${c}\n        e${k} += 3\n    else\n        continue`);
    });
    const decl = conds.map((_, k) => `int a${k} = 0\nint b${k} = 0\nint e${k} = 0`).join("\n");
    const plots = conds.map((_, k) => `plot(a${k} + b${k} * 100 + e${k} * 10000, "p${k}")`).join("\n");
    const src = v6(`float d = bar_index % 3 == 0 ? na : math.round(close - open)
int n = bar_index % 4 == 0 ? na : bar_index
bool up = close > open
${decl}
for i = 0 to 5
${parts.join("\n")}
${plots}`);
    const before = ifNaBuilds.count;
    const beforeColumn = columnPairBuilds.na;
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
    // na(d), na(d + close[i]), na(n): four ifs each, tested in the driver; na(close[i + 3]) in four
    // columnNa closures (Compiler.columnNaOf), called as the condition
    expect(ifNaBuilds.count - before).toBeGreaterThanOrEqual(12);
    expect(columnPairBuilds.na - beforeColumn).toBe(4);
    await keptRunsMatchCompile(src, bars(30));
  });

  it("`if na(x)` then break, at the top level and in while loops, equals compile", async () => {
    const src = v6(`int s = 0
int k = 0
while k < 50
    if na(close[k + 1])
        break
    if close[k] <= close[k + 1]
        break
    s += 1
    k += 1
float m = bar_index % 5 == 0 ? na : close
int t = 0
if na(m)
    t := 1
else
    t := 2
if na(m[2])
    t += 10
plot(s, "s")
plot(t, "t")`);
    const r = await runBoth(src, bars(40));
    expect(r.error).toBeUndefined();
    await keptRunsMatchCompile(src, bars(40));
  });

  it("a condition kind's closure holds only its own paths (no else path without an else)", () => {
    const f = () => NaN;
    const base: IfFlat = {
      flow: {} as Flow,
      ck: 1,
      cs: 0,
      cv: [],
      op: 0,
      l: f,
      r: f,
      c: f,
      tk: 3,
      tf: f,
      tline: 1,
      ek: 0,
      ef: f,
      eline: 2,
    };
    for (let k = 0; k < DRIVER_COPIES; k++) {
      const noElse = String(ifFlat[k]!(base));
      expect(noElse).not.toContain("ef()");
      expect(noElse).not.toContain("c()");
      const withElse = String(ifFlat[k]!({ ...base, ek: 3 }));
      expect(withElse).toContain("ef()");
      const na = String(ifFlat[k]!({ ...base, op: 6 }));
      expect(na).not.toContain("r()");
      expect(String(ifFlat[k]!({ ...base, ck: 2 }))).not.toContain("l()");
    }
  });
});
