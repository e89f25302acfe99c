// Loop-body statement shapes that run with fewer closures between the loop's driver and the work:
// a flat if whose then branch is a statement and then break/continue (Compiler.ifFlat k 4/5, no block
// driver), math.max/min of a value and a constant (the constant in place, no closure call) and bar
// column reads at a loop counter (their uncommon offsets out of line). Each must give exactly what the
// compile backend gives, on first and kept-closure runs, including na, the bar itself, offsets
// before the first bar and the history limit's error.
import { describe, expect, it } from "vitest";
import { extremeConstBuilds, ifTailBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

describe("a flat if's then branch of a statement and then break/continue", () => {
  it("every condition kind, break and continue, equals compile", async () => {
    const conds = ["up", "close[i] > open[i]", "na(d)", "d > 1.0 and close[i] > low", "not na(d)"];
    const parts: string[] = [];
    conds.forEach((c, k) => {
      parts.push(`    if ${c}\n        a${k} += i\n        continue\n    a${k} += 100`);
      parts.push(`    if ${c} and i > 2\n        b${k} := i\n        break\n    b${k} += 1`);
    });
    const decl = conds.map((_, k) => `int a${k} = 0\nint b${k} = 0`).join("\n");
    const plots = conds.map((_, k) => `plot(a${k} + b${k} * 1000, "p${k}")`).join("\n");
    const src = v6(`float d = bar_index % 3 == 0 ? na : math.round(close - open)
bool up = close > open
${decl}
for i = 0 to 6
${parts.join("\n")}
${plots}`);
    const before = ifTailBuilds.count;
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
    expect(ifTailBuilds.count - before).toBeGreaterThanOrEqual(2 * conds.length);
    await keptRunsMatchCompile(src, bars(30));
  });

  it("a statement that raises its own continue keeps it (the branch's break does not run)", async () => {
    const src = v6(`int n = 0
int m = 0
for i = 0 to 5
    for j = 0 to 3
        if j >= 1
            if i % 2 == 0
                continue
            break
        n += 1
    m += 1
int k = 0
int w = 0
while k < 8
    k += 1
    if k % 3 == 0
        w += k
        continue
    w += 100
plot(n, "n")
plot(m, "m")
plot(w, "w")`);
    const before = ifTailBuilds.count;
    const r = await runBoth(src, bars(10));
    expect(r.error).toBeUndefined();
    expect(ifTailBuilds.count - before).toBeGreaterThanOrEqual(2);
    await keptRunsMatchCompile(src, bars(10));
  });

  it("an error in the branch's statement gets its line", async () => {
    const src = v6(`a = array.new_float(2, 0)
float s = 0.0
for i = 0 to 3
    if i > 0
        s += a.get(i + 5)
        break
plot(s)`);
    const r = await runBoth(src, bars(5));
    expect(r.error_kind).toBe("runtime");
    expect(r.diagnostics?.[0]?.line).toBe(7);
  });
});

describe("math.max/min of a value and a constant", () => {
  it("stored and read, a variable or an expression, na on either side, equals compile", async () => {
    const src = v6(`float d = bar_index % 4 == 0 ? na : close - open
int limit = math.min(bar_index, 7)
float lo = na
float hi = na
float z = na
int j = 0
float s = 0.0
while j <= math.min(limit, 5)
    lo := math.min(d, 0.5)
    hi := math.max(d * 2, -1)
    z := math.max(d, na)
    s += math.max(j - 2, 0) + math.min(d, 0.25)
    j += 1
plot(lo, "lo")
plot(hi, "hi")
plot(z, "z")
plot(s, "s")
plot(j, "j")`);
    const before = extremeConstBuilds.count;
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
    expect(extremeConstBuilds.count - before).toBeGreaterThanOrEqual(5);
    await keptRunsMatchCompile(src, bars(30));
  });
});

describe("bar column reads at a loop counter, every offset kind", () => {
  it("na, 0, past bars, before the first bar and negative offsets equal compile", async () => {
    const src = v6(`float s = 0.0
float m = low
int nas = 0
int k = -2
while k <= 12
    int o = k == 5 ? na : k
    float c = close[o]
    if na(c)
        nas += 1
    else
        s += c
    m := math.max(m, high[o])
    k += 1
plot(s, "s")
plot(m, "m")
plot(nas, "nas")`);
    const r = await runBoth(src, bars(20));
    expect(r.error).toBeUndefined();
    await keptRunsMatchCompile(src, bars(20));
  });

  it("an offset over the history limit is the same runtime error on the same line", async () => {
    for (const read of ["x := close[o]", "x := math.max(x, high[o])"]) {
      const src = v6(`float x = 0.0
int o = bar_index > 2 ? 20000 : 1
for i = 0 to 1
    ${read}
plot(x)`);
      const r = await runBoth(src, bars(5));
      expect(r.error_kind).toBe("runtime");
      expect(r.diagnostics?.[0]?.line).toBe(6);
    }
  });
});
