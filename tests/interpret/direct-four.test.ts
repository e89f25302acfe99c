// A builtin with a positional form (BuiltinDef.direct) called with four arguments (matrix.set,
// color.rgb with a transparency) runs through directCopy's four-argument closure, as the compile
// backend calls it, not through the general call's argument array: same values, same runtime errors.
import { describe, expect, it } from "vitest";
import { shapeCopyBuilds } from "../../src/interpret/compiler.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

describe("direct builtin calls of four arguments", () => {
  it("matrix.set and color.rgb take the direct closure and equal compile", async () => {
    // (no other direct call in this one: its builds are the two four-argument calls')
    const before = shapeCopyBuilds.direct;
    await runBoth(
      v6(
        "m = matrix.new<float>(2, 2, 0.0)\nm.set(0, 1, close)\nbgcolor(color.rgb(9, 8, bar_index % 256, 50))\nplot(close)",
      ),
    );
    expect(shapeCopyBuilds.direct - before).toBe(2);
    const r = await runBoth(
      v6(
        [
          "m = matrix.new<float>(3, 4, 0.0)",
          "for r = 0 to 2",
          "    for c = 0 to 3",
          "        m.set(r, c, nz(close[c + r] / close[c + r + 1] - 1))",
          "matrix.set(m, 1, 2, bar_index % 3 == 0 ? na : high - low)",
          "s = matrix.new<string>(2, 2, '')",
          "s.set(1, 1, str.tostring(bar_index))",
          "plot(m.get(0, 0) + m.get(2, 3), 'a')",
          "plot(nz(m.get(1, 2), -1), 'b')",
          "plot(str.length(s.get(1, 1)), 'c')",
          "bgcolor(color.rgb(close > open ? 200 : 20, 100, bar_index % 256, bar_index % 100))",
        ].join("\n"),
      ),
      bars(60),
    );
    expect(r.error).toBeUndefined();
  });

  it("the same runtime errors as compile (an na matrix, a row out of bounds)", async () => {
    const na = await runBoth(
      v6("matrix<float> m = na\nif bar_index == 5\n    m.set(0, 0, close)\nplot(close)"),
      bars(20),
    );
    expect(na.error).toMatch(/matrix that is na/);
    const out = await runBoth(
      v6("m = matrix.new<float>(2, 2, 0.0)\nm.set(bar_index == 7 ? 2 : 0, 1, close)\nplot(close)"),
      bars(20),
    );
    expect(out.error).toMatch(/Row index 2 is out of bounds/);
  });
});
