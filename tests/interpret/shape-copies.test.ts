// Stores of a closure's value, ternaries, output calls (plot and friends), direct builtin calls,
// switches on constant cases, color.new of a constant transparency, pure numeric calls (na, nz,
// math.*), user function calls and eager and/or take one of several generated copies of their
// closure (fused.generated.ts storeNumCopy / storeValCopy / ternCopy / outputCopy / plotCopy /
// directCopy / switchConstCopy / colorAlphaCopy / pureCopy / ucallCopy / eagerAnd / eagerOr), handed
// out in turn. Only which copy runs changes: every shape, each operand kind and more instances than
// there are copies must give what the compile backend gives, on a first run and on later ones (kept
// closures).
import { describe, expect, it } from "vitest";
import { shapeCopyBuilds } from "../../src/interpret/compiler.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

/** More instances of each shape than there are copies (8). */
const COUNT = 9;

/** The shapes, COUNT times; part 0 and 1 differ in their outputs (a script has at most 64 plot counts). */
function script(part: number): string {
  const lines: string[] = [
    "g1(x) => x * 2",
    "g2(x, y) => x - y",
    "g3(x, y, z) => x * y + z",
    "g4(a, b, c, d) => a + b * c - d",
  ];
  for (let i = 0; i < COUNT; i++) {
    const c = `cond${i}`;
    lines.push(
      `bool ${c} = close > open and high - low > ${i % 3} * 0.1 or volume < ${i}`,
      `float k${i} = ${i}.5`,
      // numeric stores of a closure (declaration, reassignment, value read back), a non-numeric one
      `float d${i} = nz(close[${i % 4}], ${i})`,
      `d${i} := math.abs(open[${i % 3}] - close)`,
      `float e${i} = if ${c}`,
      `    d${i} := d${i} + math.sqrt(high)`,
      `else`,
      `    d${i} := math.abs(low - open)`,
      `string s${i} = ${c} ? "up${i}" : "down"`,
      `s${i} := str.tostring(d${i})`,
      // ternaries: slot/constant/closure on either side, na conditions
      `float t${i} = ${c} ? k${i} : d${i}`,
      `t${i} += ${c} ? ${i} : -${i}`,
      `t${i} += ${c} ? 1.5 : k${i}`,
      `t${i} += ${c} ? k${i} : 2`,
      `t${i} += ${c} ? d${i} * 2 : k${i}`,
      `t${i} += ${c} ? d${i} * 2 : 3`,
      `t${i} += ${c} ? k${i} : math.max(d${i}, 1)`,
      `t${i} += ${c} ? 4 : math.min(d${i}, 1)`,
      `t${i} += ${c} ? d${i} + 1 : d${i} - 1`,
      `t${i} += nz(na(close[${i + 2}]) ? 0 : close[${i + 2}])`,
      // na / nz / math of a closure, nz of two
      `t${i} += na(d${i} * k${i}) ? 1 : nz(d${i} / (k${i} - ${i}.5), -1) + nz(math.log(d${i} - 1)) + math.abs(t${i} - d${i})`,
      // a switch on constant cases (every position, the default)
      `float w${i} = switch int(math.abs(d${i}) * 10) % 4`,
      `    0 => d${i}`,
      `    1 => k${i}`,
      `    2 => d${i} * k${i}`,
      `    => -1.0`,
      `t${i} += w${i}`,
      // user function calls of 1-4 arguments
      `t${i} += g1(d${i}) + g2(k${i}, close) + g3(d${i}, k${i}, open) + g4(k${i}, d${i}, ${i}, high)`,
      // output calls: a colour written after or before the value, a flag, a plain plot of a closure
      ...(part === 0
        ? [
            `plot(t${i}, "t${i}", color = ${c} ? color.new(color.red, ${i}) : color.green)`,
            `plot(t${i} - e${i} * 2, "p${i}")`,
          ]
        : [
            `plot(color = ${c} ? color.blue : color.new(color.gray, ${i * 5}), series = e${i}, title = "e${i}")`,
            `bgcolor(${c} ? color.new(color.teal, 80) : na)`,
            `plot(math.max(d${i}, k${i}), "q${i}")`,
          ]),
      `plotshape(${c} and d${i} > 0, "f${i}", color = color.new(${c} ? color.red : color.green, ${i}))`,
      // a variable transparency: the direct call (a constant one takes colorAlphaCopy)
      `bgcolor(color.new(${c} ? color.purple : color.orange, k${i} * 9))`,
    );
  }
  return v6(lines.join("\n"));
}

describe("shape copies: stores, ternaries, outputs, direct calls and eager and/or", () => {
  it("more instances of each shape than copies, every operand kind, equal compile on every run", async () => {
    for (const part of [0, 1]) await check(script(part));
  });
});

async function check(src: string): Promise<void> {
  const before = { ...shapeCopyBuilds };
  const r = await runBoth(src, bars(40));
  expect(r.error).toBeUndefined();
  // every shape took copies (more than there are)
  for (const k of Object.keys(before) as (keyof typeof shapeCopyBuilds)[])
    expect(shapeCopyBuilds[k] - before[k], k).toBeGreaterThanOrEqual(COUNT);
  const want = await new Runtime().run(src, bars(40), { mode: "compile" });
  const rt = new Runtime();
  for (let run = 0; run < 3; run++) {
    const got = await rt.run(src, bars(40), { mode: "interpret" });
    expect(got.error).toBeUndefined();
    expect(got.series).toEqual(want.series);
    expect(JSON.stringify(got.plots)).toBe(JSON.stringify(want.plots));
  }
}
