// Global variables' histories are committed at each bar's close in two loops, numeric rings (a
// Float64Array of a numeric slot) apart from the rest (RunState.commit), and a constant-offset read
// of a numeric ring comes from a closure of its own (Compiler.hist): int, float and colour histories
// next to bool, string and object ones, read at constant and variable offsets, directly and through
// calls and strings, must give what the compile backend gives, on a first run and on later ones.
import { describe, expect, it } from "vitest";
import { bars, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

describe("history rings of every kind, committed per bar", () => {
  it("numeric and other histories at constant and variable offsets equal compile", async () => {
    const lines = ["type P", "    float v", "int n = 0"];
    for (let i = 0; i < 6; i++)
      lines.push(
        `float f${i} = close * ${i + 1} - open`,
        `int k${i} = bar_index % ${i + 2}`,
        `color c${i} = close > open ? color.new(color.red, ${i * 10}) : color.blue`,
        `bool b${i} = close[${i}] > open`,
        `string s${i} = str.tostring(k${i})`,
        `P p${i} = P.new(f${i})`,
        `n := bar_index % 4`,
        `plot(nz(f${i}[1]) + nz(f${i}[${i + 2}]) + nz(k${i}[1]) + nz(f${i}[n]), "f${i}")`,
        `plot(str.length(s${i}[1] + (b${i}[2] ? "y" : "n")) + (na(p${i}[1]) ? 0 : p${i}[1].v) + (c${i}[1] == color.blue ? 1 : 0), "o${i}")`,
        `plot(math.max(nz(k${i}[3]), nz(f${i}[1])) * (b${i}[1] ? 1 : -1), "m${i}")`,
      );
    const src = v6(lines.join("\n"));
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
    await keptRunsMatchCompile(src, bars(30));
  });
});
