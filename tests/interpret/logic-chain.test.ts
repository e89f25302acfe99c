// `a and b and c ...` (or `or`) of three operands or more runs as one closure with its operands
// unrolled (fused.generated.ts lazyAndN / lazyOrN / eagerAndN / eagerOrN, Compiler.logicChain),
// not as nested pairs. The operands run in the written order: v6 stops at the first operand that
// decides, v5 calls them all; the value is the nested pairs' (the operand that decided). Every
// length up to past LOGIC_OPERANDS (a longer chain takes its head as a chain of its own), each
// position deciding, mixed and/or and parentheses, as compile, on first and kept runs.
import { describe, expect, it } from "vitest";
import { logicChainBuilds } from "../../src/interpret/compiler.js";
import { LOGIC_OPERANDS } from "../../src/interpret/fused.generated.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

const data = bars(64);

/** Operand k of bar b: true unless bit k of b is set, so each bar decides at another position. */
const bit = (k: number) => `(math.floor(bar_index / ${2 ** (k % 6)}) % 2 == ${k % 2})`;

describe("and/or chains as one closure", () => {
  for (const [dialect, wrap, lazy] of [
    ["v6", v6, true],
    ["v5", v5, false],
  ] as const)
    it(`every length and deciding position, and the calls made (${dialect})`, async () => {
      // each operand records its call in a global array (the order and how many ran)
      const lines = ["var calls = array.new_int(0)", "t(int k, bool v) =>", "    array.push(calls, k)", "    v"];
      const lengths = [3, 4, 7, LOGIC_OPERANDS, LOGIC_OPERANDS + 3];
      for (const n of lengths)
        for (const op of ["and", "or"]) {
          const ops = Array.from({ length: n }, (_, k) => `t(${k}, ${op === "and" ? "" : "not "}${bit(k)})`);
          lines.push(
            "array.clear(calls)",
            `bool r${op}${n} = ${ops.join(` ${op} `)}`,
            `plot(r${op}${n} ? 1 : 0, "${op}${n}")`,
            `plot(array.size(calls), "n${op}${n}")`,
            `plot(array.size(calls) > 0 ? array.last(calls) : -1, "l${op}${n}")`,
          );
        }
      const src = wrap(lines.join("\n"));
      const before = logicChainBuilds.count;
      const r = await runBoth(src, data);
      expect(r.error).toBeUndefined();
      // (the longest chain is two: its head and the rest)
      expect(logicChainBuilds.count - before).toBe(2 * (lengths.length + 1));
      for (const n of lengths)
        for (const op of ["and", "or"]) {
          const vals = (b: number) =>
            Array.from({ length: n }, (_, k) => {
              const v = ((b >> (k % 6)) & 1) === k % 2;
              return op === "and" ? v : !v;
            });
          const want = data.map((_, b) => {
            const vs = vals(b);
            const at = vs.findIndex((v) => (op === "and" ? !v : v));
            return { r: op === "and" ? at < 0 : at >= 0, ran: lazy ? (at < 0 ? n : at + 1) : n };
          });
          expect(r.series[`${op}${n}`]).toEqual(want.map((w) => (w.r ? 1 : 0)));
          expect(r.series[`n${op}${n}`]).toEqual(want.map((w) => w.ran));
          expect(r.series[`l${op}${n}`]).toEqual(want.map((w) => w.ran - 1));
        }
      await keptRunsMatchCompile(src, data);
    });

  it("mixed operators and parentheses keep their grouping; bar-column pairs inside a chain", async () => {
    const src = v6(`bool a = close > open
bool b = high - low > 1
bool c = volume > volume[1]
bool x = a and b or c and a or b
bool y = a and (b or c) and not a or (c and b and a)
int n = 0
for j = 1 to 3
    if high[j] > high[j - 1] and low[j] < low[j - 1] and a
        n += 1
plot(x ? 1 : 0, "x")
plot(y ? 1 : 0, "y")
plot(n, "n")`);
    const before = logicChainBuilds.count;
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    // x's `or` of three operands and y's two `and` chains of three are chains; y's `or` has two
    // operands, and the loop's chain of a bar-column pair and one more takes the pair form
    expect(logicChainBuilds.count - before).toBe(3);
    await keptRunsMatchCompile(src, data);
  });
});
