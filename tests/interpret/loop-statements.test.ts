// Loop-body statement shapes that run with fewer closures between the loop's driver and the work:
// a flat if whose then branch is a statement and then break/continue (Compiler.ifFlat k 4/5, no block
// driver), math.max/min of a value and a constant (the constant in place, no closure call), bar
// column reads at a loop counter (their uncommon offsets out of line) and at a loop counter plus or
// minus a constant (`high[j - 1]`: the offset added in the reader, no offset closure). Each must give exactly what the
// compile backend gives, on first and kept-closure runs, including na, the bar itself, offsets
// before the first bar and the history limit's error.
import { describe, expect, it } from "vitest";
import { columnShiftBuilds, extremeConstBuilds, ifTailBuilds } from "../../src/interpret/compiler.js";
import { Runtime } from "../../src/runtime/index.js";
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

describe("bar column reads at a loop counter plus or minus a constant", () => {
  it("every column, + and - and constant first, in fused operators, ifs and na(), more reads than copies", async () => {
    const src = v6(`float s = 0.0
int nas = 0
int ups = 0
int k = -3
while k <= 14
    int o = k == 6 ? na : k
    s += high[o + 1] - low[o - 1] + open[1 + o] * 0 + volume[o - 2] * 0 + close[o - 0]
    if na(close[o + 2])
        nas += 1
    if close[o] > close[o + 1] and high[o - 1] >= high[o + 1]
        ups += 1
    s += time[o + 1] > time[o - 1] ? 1 : 0
    k += 1
plot(s, "s")
plot(nas, "nas")
plot(ups, "ups")`);
    const before = columnShiftBuilds.count;
    const r = await runBoth(src, bars(25));
    expect(r.error).toBeUndefined();
    expect(columnShiftBuilds.count - before).toBeGreaterThanOrEqual(11);
    await keptRunsMatchCompile(src, bars(25));
  });

  it("offset 0 reached through the constant is the realtime tick's value", async () => {
    const src = v6(`float c = na
float h = na
int k = 1
while k < 2
    c := close[k - 1] + 0
    h := high[k - 1]
    k += 1
varip int ticks = 0
varip int off = 0
if barstate.isrealtime
    ticks += 1
    if c != close or h != high
        off += 1
plot(ticks, "ticks")
plot(off, "off")`);
    const data = bars(12);
    data.at(-1)!.high += 3;
    const r = await new Runtime().run(src, data, { mode: "interpret", realtimeLastBar: true, realtimeTicks: 4 });
    expect(r.error).toBeUndefined();
    expect(r.series.ticks!.at(-1)).toBe(4);
    expect(r.series.off!.at(-1)).toBe(0);
  });

  it("an offset over the history limit is the same runtime error on the same line", async () => {
    const src = v6(`float x = 0.0
int o = bar_index > 2 ? 20000 : 1
for i = 0 to 1
    x := close[o + 1]
plot(x)`);
    const r = await runBoth(src, bars(5));
    expect(r.error_kind).toBe("runtime");
    expect(r.diagnostics?.[0]?.line).toBe(6);
  });
});
