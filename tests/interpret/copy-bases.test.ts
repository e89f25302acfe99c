// Each program starts handing out the generated copies (drivers, fused and shape copies; its
// top-level chunks: chunkBaseOf) at a place of its own (compiler.ts copyBaseOf): V8 keeps one type
// feedback per function literal across all programs in a process, so two programs both starting at
// copy 0 shared their first copies' call sites and the one optimised second ran slower for good. The
// base must differ between programs, stay fixed for one program (kept closures are keyed by their
// copy), and change nothing in what a run computes.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { chunkBaseOf, copyBaseOf } from "../../src/interpret/compiler.js";
import { CHUNK_COPIES, DRIVER_COPIES } from "../../src/interpret/drivers.generated.js";
import { keptStats } from "../../src/interpret/memo.js";
import { comparable } from "../compile/parity.js";

/** Ten top-level statements (chunked from the second run on), a loop, an if and stores. */
function script(tag: string, k: number): string {
  return `//@version=6
indicator("copies ${tag}")
a = ta.sma(close, ${5 + k})
b = close - open
var float acc = 0.0
acc += b * ${k + 1}
float mx = close
for i = 1 to ${3 + k}
    mx := math.max(mx, high[i])
c = b > 0 ? mx - a : a - mx
if c > 0
    acc := acc * 0.5
d = nz(c[1]) + acc
plot(a + d, "p")
plot(mx, "m")`;
}

describe("each program's own copy base", () => {
  it("differs between programs one after another and stays fixed for a program", () => {
    const progs = [{}, {}, {}, {}];
    const bases = progs.map((p) => copyBaseOf(p));
    for (const b of bases) expect(b >= 0 && b < DRIVER_COPIES && Number.isInteger(b)).toBe(true);
    for (let i = 1; i < bases.length; i++) expect(bases[i]).not.toBe(bases[i - 1]);
    expect(progs.map((p) => copyBaseOf(p))).toEqual(bases);
  });

  it("gives programs one after another disjoint runs of chunk copies, fixed for a program", () => {
    const progs = [{}, {}, {}, {}];
    const counts = [5, 3, 7, 2];
    const bases = progs.map((p, i) => chunkBaseOf(p, counts[i]!));
    for (let i = 1; i < bases.length; i++) expect(bases[i]).toBe((bases[i - 1]! + counts[i - 1]!) % CHUNK_COPIES);
    // asked again (a later run, whatever its count), a program keeps its base
    expect(progs.map((p) => chunkBaseOf(p, 1))).toEqual(bases);
  });

  it("programs run in turn in one process give what compile gives, and keep their closures", async () => {
    const bars = generateBars(400);
    const srcs = [0, 1, 2].map((k) => script(String(k), k));
    const want = await Promise.all(srcs.map((s) => new Runtime().run(s, bars, { mode: "compile" })));
    const rts = srcs.map(() => new Runtime());
    for (let round = 0; round < 3; round++)
      for (let k = 0; k < srcs.length; k++) {
        const made = keptStats.made;
        const got = await rts[k]!.run(srcs[k]!, bars, { mode: "interpret" });
        expect(got.error).toBeUndefined();
        expect(comparable(got)).toEqual(comparable(want[k]!));
        // from the third round on a program's runs make no closure: its copies are the ones it kept
        if (round >= 2) expect(keptStats.made).toBe(made);
      }
  });
});
