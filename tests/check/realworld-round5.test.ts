// Checker rules settled by the fifth real-world round (issue 17, tests/realworld/scripts/r5_*): scripts
// TradingView accepts that resin refused or ran wrong. Every case runs in both modes (runBoth).
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(8);

describe("a variable named like a builtin namespace", () => {
  // TradingView resolves `ns.member` to the builtin namespace when `ns.member` is a builtin, while the
  // plain name is the variable: `size = 3` then `size.small`, a parameter `color` then `color.new(...)`.
  it("variables and parameters named size, color, extend, alert, line keep their namespaces", async () => {
    const src =
      "//@version=6\nindicator('t', overlay = true)\nsize = 3\ncolor = close > open ? color.green : color.red\n" +
      "extend = input.bool(true, 'Extend')\nalert = input.bool(true, 'Alert')\n" +
      "var line line = na\nline := line.new(bar_index - 1, close[1], bar_index, close, extend = extend ? extend.right : extend.none)\n" +
      "line.delete(line[1])\nline.set_color(line, color)\n" +
      "if alert and barstate.islast\n    alert('last', alert.freq_once_per_bar)\n" +
      "mk(color, width) =>\n    label.new(bar_index, high, 'x', color = color.new(color, 50), size = size.small)\n    width * size\n" +
      "plot(mk(color.orange, 2), 'w', color = color)\nplot(size, 's')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["w"]).toEqual(data.map(() => 6));
    expect(r.series["s"]).toEqual(data.map(() => 3));
    expect(r.alerts.length).toBe(1);
    // one live line (each bar deletes the previous one) and the labels
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(1);
    expect(r.drawings.filter((d) => d.type === "label").length).toBe(data.length);
  });
  it("a field of the variable's own type comes before the namespace member", async () => {
    const src = "//@version=6\nindicator('t')\ntype Sz\n    float small = 7\nsize = Sz.new()\nplot(size.small, 's')\nplot(size.tiny == size.tiny ? 1 : 0, 'ns')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["s"]).toEqual(data.map(() => 7));
    expect(r.series["ns"]).toEqual(data.map(() => 1));
  });
  it("a method call on the variable stays a method call", async () => {
    const src =
      "//@version=6\nindicator('t')\nvar array = array.new<float>()\narray.push(close)\nline = line.new(bar_index, close, bar_index + 1, close)\nline.delete()\n" +
      "plot(array.size(), 'n')\nplot(array.sum(array), 'sum')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["n"]).toEqual(data.map((_, i) => i + 1));
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(0);
  });
  it("an unknown member of a variable is still an error", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\nsize = 3\nplot(size.foo)\n", data);
    expect(r.error).toMatch(/Cannot access field 'foo'/);
  });
});
