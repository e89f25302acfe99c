// Checker fixes found by the second real-world round (tests/realworld/scripts/r2_*): each through
// the public Runtime in both modes, with the values worked out by hand.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(5);

describe("var keeps the qualifier of a never-reassigned initial value", () => {
  it("var string used as an input group (const string expected)", async () => {
    const src =
      "//@version=5\nindicator('t')\nvar string grp = 'Calculation'\nlen = input.int(14, 'Length', group = grp)\nplot(len)\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["plot_0"]).toEqual([14, 14, 14, 14, 14]);
  });
  it("a reassigned var is still series: group from it is rejected", async () => {
    const src =
      "//@version=6\nindicator('t')\nvar string grp = 'A'\ngrp := 'B'\nlen = input.int(14, 'Length', group = grp)\nplot(len)\n";
    const r = await runBoth(src, data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toContain("group");
  });
});

describe("global const variables in declaration arguments", () => {
  it("indicator title built from a const string declared before it", async () => {
    const src = "//@version=6\nconst string VER = '2.1'\nindicator('Tool v' + VER, overlay = true)\nplot(close)\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["plot_0"]).toEqual(data.map((b) => b.close));
  });
  it("a non-constant variable is still refused", async () => {
    const src = "//@version=6\nt = str.tostring(close)\nindicator(t)\nplot(close)\n";
    const r = await runBoth(src, data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toContain("must be a constant");
  });
});

describe("x[0] is the current value", () => {
  it("a variable, an expression and a ta call with [0] and no other history reference", async () => {
    const src =
      "//@version=6\nindicator('t')\nb = close > open\nc = close * 2\n" +
      "plot(c[0], 'c')\nplot((c + 1)[0], 'e')\nplot(b[0] ? 1 : 0, 'b')\nplot(ta.highest(close, 2)[0], 'h')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(data.map((x) => x.close * 2));
    expect(r.series["e"]).toEqual(data.map((x) => x.close * 2 + 1));
    expect(r.series["b"]).toEqual(data.map((x) => (x.close > x.open ? 1 : 0)));
    expect(r.series["h"]).toEqual(data.map((x, i) => (i === 0 ? null : Math.max(x.close, data[i - 1]!.close))));
  });
});

describe("'input' parameters refuse series arguments; if/switch values keep their parts' qualifier", () => {
  const refused = async (src: string, text: string) => {
    const r = await runBoth(src, data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toContain(text);
  };
  it("hline price and plot style from a series value are refused", async () => {
    await refused("//@version=6\nindicator('t')\nhline(ta.sma(close, 5))\n", "expected input");
    await refused(
      "//@version=6\nindicator('t')\nplot(close, style = close > open ? plot.style_line : plot.style_circles)\n",
      "expected input plot_style",
    );
    await refused("//@version=6\nindicator('t')\nplot(close, linewidth = bar_index % 3 + 1)\n", "expected input int");
  });
  it("a switch over an input picks an input alert frequency; an if over an input bool an input plot style", async () => {
    const src =
      "//@version=6\nindicator('t')\nf = input.string('All', options = ['All', 'Bar'])\nfr = switch f\n    'All' => alert.freq_all\n    => alert.freq_once_per_bar\n" +
      "b = input.bool(true)\ns = if b\n    plot.style_circles\nelse\n    plot.style_line\nlvl = input.int(70)\nhline(100 - lvl)\n" +
      "if close > open\n    alert('up', fr)\nplot(close, 'c', style = s)\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.plot_meta["c"]).toMatchObject({ style: "circles" });
    expect(r.alerts.length).toBe(data.filter((x) => x.close > x.open).length);
  });
});
