// A general builtin call (an argument array) with 3 to 8 evaluated arguments calls each argument's
// closure from its own site (compiler.ts unrolledArgs), in the written order, not from one loop; more
// than 8 keep the loop. Values, drawings and errors must equal the compile backend's.
import { describe, expect, it } from "vitest";
import { unrolledArgsBuilds } from "../../src/interpret/compiler.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

describe("general calls of 3 to 8 evaluated arguments", () => {
  it("take one closure per argument count and equal compile", async () => {
    const before = { ...unrolledArgsBuilds };
    const r = await runBoth(
      v6(
        [
          "off = input.int(1)",
          "show = input.bool(true)",
          "up = close > open",
          "plot(close, 'a', color = up ? color.red : color.blue, offset = off, display = show ? display.all : display.none)",
          "plotcandle(open, high, low, close, 'c', color = up ? color.green : color.red, wickcolor = up ? color.gray : color.black, bordercolor = up ? color.lime : color.maroon)",
          "plotbar(open + 1, high + 1, low - 1, close, 'b', color = up ? color.green : color.red)",
          "if bar_index % 7 == 0",
          "    label.new(bar_index, high, str.tostring(close), color = up ? color.red : color.blue, textcolor = up ? color.white : color.black, style = up ? label.style_label_down : label.style_label_up, size = up ? size.small : size.normal, tooltip = str.tostring(off))",
          "    box.new(bar_index - 3, high, bar_index, low, border_color = up ? color.red : color.blue, bgcolor = color.new(color.gray, 80))",
        ].join("\n"),
        "indicator('t', overlay = true)",
      ),
      bars(50),
    );
    expect(r.error).toBeUndefined();
    const built = Object.keys(unrolledArgsBuilds).filter((k) => (unrolledArgsBuilds[+k] ?? 0) > (before[+k] ?? 0));
    expect(built.length).toBeGreaterThanOrEqual(3);
  });

  it("evaluates the arguments in the written order (a runtime error from the first failing one)", async () => {
    const r = await runBoth(
      v6(
        [
          "a = array.new<float>(2, 1.0)",
          "if bar_index > 2",
          "    label.new(bar_index, a.get(bar_index == 5 ? 9 : 0), str.tostring(a.get(bar_index == 5 ? 8 : 1)), color = close > open ? color.red : color.blue)",
        ].join("\n"),
      ),
      bars(20),
    );
    expect(r.error).toMatch(/index 9/i);
  });
});
