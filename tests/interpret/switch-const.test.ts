// A switch with a subject whose case tests are all constants runs through a generated copy with its
// cases unrolled (fused.generated.ts switchConstCopy): the subject read once, each case's body
// called from its own site. Pine's rules hold: the first equal case wins, an na subject matches no
// case, an na case never matches, the default runs when nothing matched (na without one), cases
// after the default are unreachable. Any other switch (a test that is not a constant, more cases
// than the copy unrolls) keeps the general loop. Each must give what the compile backend gives and
// what an if chain (the general path's meaning) gives, on first and kept runs.
import { describe, expect, it } from "vitest";
import { shapeCopyBuilds } from "../../src/interpret/compiler.js";
import { SWITCH_CONST_CASES } from "../../src/interpret/fused.generated.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

const data = bars(60);

/** `switch` and the same choice as an if chain, plotted side by side (s and w). */
function pair(subject: string, cases: [string, string][], dflt: string | null, wrap = v6): string {
  const sw = cases.map(([t, b]) => `    ${t} => ${b}`);
  if (dflt !== null) sw.push(`    => ${dflt}`);
  const chain = cases.map(([t, b], i) => `${i === 0 ? "if" : "else if"} subj == ${t}\n    w := ${b}`);
  if (dflt !== null) chain.push(`else\n    w := ${dflt}`);
  return wrap(`subj = ${subject}
float s = switch subj
${sw.join("\n")}
float w = na
${chain.join("\n")}
plot(s, "s")
plot(w, "w")`);
}

describe("switch on constant cases (switchConstCopy)", () => {
  it("every case position, the default and no match give the if chain's values and compile's", async () => {
    // subject 0..6 over the bars: cases 1..5 each hit, 0 and 6 fall to the default
    const cases: [string, string][] = [1, 2, 3, 4, 5].map((k) => [`${k}`, `close * ${k}`]);
    for (const dflt of ["-1.0", null]) {
      const before = shapeCopyBuilds.switch;
      const src = pair("bar_index % 7", cases, dflt);
      const r = await runBoth(src, data);
      expect(r.error).toBeUndefined();
      expect(shapeCopyBuilds.switch - before).toBe(1);
      expect(r.series.s).toEqual(r.series.w);
      // (the default, or na without one, is reached)
      expect(r.series.s![0]).toEqual(dflt === null ? null : -1);
      await keptRunsMatchCompile(src, data);
    }
  });

  it("an na subject matches no case; an na case never matches; the first of equal cases wins", async () => {
    const src = v6(`int subj = bar_index % 3 == 0 ? na : bar_index % 4
float s = switch subj
    na => 100.0
    2 => 2.0
    1 => 1.0
    2 => 22.0
    => -1.0
plot(s, "s")`);
    const before = shapeCopyBuilds.switch;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(shapeCopyBuilds.switch - before).toBe(1);
    const want = data.map((_, b) => (b % 3 === 0 ? -1 : b % 4 === 2 ? 2 : b % 4 === 1 ? 1 : -1));
    expect(r.series.s).toEqual(want);
    await keptRunsMatchCompile(src, data);
    // (no case left but the default: the subject still evaluated, its calls made)
    const only = v6(`var calls = array.new_int(0)
g() =>
    calls.push(1)
    bar_index % 2
float s = switch g()
    na => 100.0
    => -1.0
plot(s, "s")
plot(calls.size(), "calls")`);
    const b2 = shapeCopyBuilds.switch;
    const r2 = await runBoth(only, data);
    expect(shapeCopyBuilds.switch - b2).toBe(1);
    expect(r2.series.s).toEqual(data.map(() => -1));
    expect(r2.series.calls).toEqual(data.map((_, b) => b + 1));
  });

  it("bodies with side effects run only for the case taken; strings, enums and v5 as compile", async () => {
    const src = v6(`enum Kind
    a
    b
    c
var int na_ = 0
var int nb = 0
var int nc = 0
var int nd = 0
Kind k = bar_index % 4 == 0 ? Kind.a : bar_index % 4 == 1 ? Kind.b : bar_index % 4 == 2 ? Kind.c : na
int r = switch k
    Kind.a =>
        na_ += 1
        1
    Kind.b =>
        nb += 1
        2
    Kind.c =>
        nc += 1
        3
    =>
        nd += 1
        4
string t = bar_index % 3 == 0 ? "x" : bar_index % 3 == 1 ? "y" : "z"
string u = switch t
    "y" => "Y"
    "x" => "X"
plot(r, "r")
plot(na_ * 1000000 + nb * 10000 + nc * 100 + nd, "n")
plot(str.length(u), "u")
plot(u == "X" ? 1 : u == "Y" ? 2 : na(u) ? 3 : 4, "v")`);
    const before = shapeCopyBuilds.switch;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(shapeCopyBuilds.switch - before).toBe(2);
    expect(r.series.r).toEqual(data.map((_, b) => [1, 2, 3, 4][b % 4]));
    expect(r.series.v).toEqual(data.map((_, b) => [1, 2, 3][b % 3]));
    const last = data.length - 1;
    const counts = [0, 0, 0, 0];
    for (let b = 0; b <= last; b++) counts[b % 4]!++;
    expect(r.series.n![last]).toBe(counts[0]! * 1000000 + counts[1]! * 10000 + counts[2]! * 100 + counts[3]!);
    await keptRunsMatchCompile(src, data);
    const five = pair(
      "bar_index % 4",
      [
        ["1", "high"],
        ["2", "low"],
      ],
      "open",
      v5,
    );
    expect((await runBoth(five, data)).error).toBeUndefined();
  });

  it("more switches than copies, in a function called per bar, as compile", async () => {
    const lines = [
      "f(int k, float x) =>",
      "    switch k",
      "        0 => x",
      "        1 => x * 2",
      "        2 => ta.ema(x, 5)",
      "        => -x",
    ];
    for (let i = 0; i < 10; i++) lines.push(`plot(f((bar_index + ${i}) % 4, close), "f${i}")`);
    const src = v6(lines.join("\n"));
    const before = shapeCopyBuilds.switch;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(shapeCopyBuilds.switch - before).toBe(10);
    await keptRunsMatchCompile(src, data);
  });

  it("a test that is not a constant, or too many cases, keeps the general loop (tests in order)", async () => {
    // the tests call a function with a side effect: run in order until the first equal one
    const src = v6(`var calls = array.new_int(0)
g(int v) =>
    calls.push(v)
    v
float s = switch bar_index % 3
    g(0) => 10.0
    g(1) => 11.0
    g(2) => 12.0
plot(s, "s")
plot(calls.size(), "calls")
plot(calls.size() > 0 ? calls.last() : na, "lastTest")`);
    const before = shapeCopyBuilds.switch;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(shapeCopyBuilds.switch - before).toBe(0);
    let calls = 0;
    expect(r.series.calls).toEqual(data.map((_, b) => (calls += (b % 3) + 1)));
    expect(r.series.lastTest).toEqual(data.map((_, b) => b % 3));
    expect(r.series.s).toEqual(data.map((_, b) => 10 + (b % 3)));
    const many = Array.from({ length: SWITCH_CONST_CASES + 1 }, (_, k): [string, string] => [`${k}`, `${k}.5`]);
    const b2 = shapeCopyBuilds.switch;
    const r2 = await runBoth(pair(`bar_index % ${SWITCH_CONST_CASES + 2}`, many, "-1.0"), data);
    expect(shapeCopyBuilds.switch - b2).toBe(0);
    expect(r2.series.s).toEqual(r2.series.w);
    // (as many as the copy unrolls: taken, every position)
    const most = many.slice(0, SWITCH_CONST_CASES);
    const b3 = shapeCopyBuilds.switch;
    const r3 = await runBoth(pair(`bar_index % ${SWITCH_CONST_CASES + 1}`, most, "-1.0"), data);
    expect(shapeCopyBuilds.switch - b3).toBe(1);
    expect(r3.series.s).toEqual(r3.series.w);
  });
});
