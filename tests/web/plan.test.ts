import { describe, expect, it } from "vitest";
import { bareName, markerPosition, markerShape, markerSize, planPlots } from "../../web/src/chart/plan.js";
import { anyColor, cssColor } from "../../web/src/chart/colors.js";

const result = (plot_meta: Record<string, any>, overlay = true, series: Record<string, any[]> = {}) => ({
  plot_meta,
  overlay,
  series,
});

describe("planPlots", () => {
  it("maps plot styles to series types", () => {
    const plans = planPlots(
      result({
        a: { title: "a", kind: "plot", index: 0, style: "line", color: "#FF0000" },
        h: { title: "h", kind: "plot", index: 1, style: "plot.style_histogram" },
        ar: { title: "ar", kind: "plot", index: 2, style: "style_area" },
        st: { title: "st", kind: "plot", index: 3, style: "stepline" },
        c: { title: "c", kind: "plot", index: 4, style: "circles" },
      }),
    );
    expect(plans.map((p) => p.type)).toEqual(["line", "histogram", "area", "line", "line"]);
    expect(plans[0]).toMatchObject({ color: "#FF0000", step: false, points: false, lineVisible: true });
    expect(plans[3]).toMatchObject({ step: true });
    expect(plans[4]).toMatchObject({ points: true, lineVisible: false });
  });

  it("joins style_line across na but breaks the *br styles, and keeps the plot's offset", () => {
    const plans = planPlots(
      result({
        l: { title: "l", kind: "plot", index: 0, style: "line", offset: 3 },
        br: { title: "br", kind: "plot", index: 1, style: "linebr" },
        sbr: { title: "sbr", kind: "plot", index: 2, style: "steplinebr" },
        a: { title: "a", kind: "plot", index: 3, style: "area" },
        abr: { title: "abr", kind: "plot", index: 4, style: "areabr", offset: -2 },
      }),
    );
    expect(plans.map((p) => ("bridge" in p ? p.bridge : null))).toEqual([true, false, false, true, false]);
    expect(plans.map((p) => ("offset" in p ? p.offset : null))).toEqual([3, 0, 0, 0, -2]);
  });

  it("follows index order and puts plots in panes by their pane or the declaration's overlay", () => {
    const plans = planPlots(
      result(
        {
          second: { title: "second", kind: "plot", index: 1 },
          first: { title: "first", kind: "plot", index: 0, pane: "overlay" },
        },
        false,
      ),
    );
    expect(plans.map((p) => [p.title, "pane" in p ? p.pane : null])).toEqual([
      ["first", 0],
      ["second", 1],
    ]);
  });

  it("skips display.none, turns shapes into markers and hlines into price levels", () => {
    const plans = planPlots(
      result(
        {
          hidden: { title: "hidden", kind: "plot", index: 0, display: "display.none" },
          up: { title: "up", kind: "plotshape", index: 1, style: "shape.triangleup", location: "location.belowbar" },
          ch: { title: "ch", kind: "plotchar", index: 2, char: "x", location: "abovebar" },
          lvl: { title: "lvl", kind: "hline", index: 3, price: 70, linestyle: "solid" },
          f: { title: "f", kind: "fill", index: 4, plot1: "lvl", plot2: "up", color: "#00000080" },
        },
        true,
        { lvl: [70, 70] },
      ),
    );
    expect(plans.map((p) => p.type)).toEqual(["markers", "markers", "hline", "fill"]);
    expect(plans[0]).toMatchObject({ shape: "arrowUp", position: "belowBar" });
    expect(plans[1]).toMatchObject({ shape: "circle", position: "aboveBar", text: "x" });
    expect(plans[2]).toMatchObject({ price: 70, dashed: false });
    expect(plans[3]).toMatchObject({ plot1: "lvl", plot2: "up", color: "rgba(0, 0, 0, 0.502)" });
  });

  it("draws plotcandle as candles and plotbar as bars, wick and border defaulting to the body colour", () => {
    const plans = planPlots(
      result(
        {
          c: { title: "c", kind: "plotcandle", index: 0, color: "#00FF00", wickcolor: "#808080" },
          b: { title: "b", kind: "plotbar", index: 1, color: "#FF0000", pane: "overlay" },
        },
        false,
      ),
    );
    expect(plans[0]).toEqual({
      type: "ohlc",
      title: "c",
      pane: 1,
      candles: true,
      color: "#00FF00",
      wickColor: "#808080",
      borderColor: "#00FF00",
    });
    expect(plans[1]).toMatchObject({ type: "ohlc", candles: false, pane: 0, color: "#FF0000", wickColor: "#FF0000" });
  });

  it("reads hline prices from the series when the meta has none", () => {
    const [p] = planPlots(result({ h: { title: "h", kind: "hline", index: 0 } }, true, { h: [null, 30, 30] }));
    expect(p).toMatchObject({ type: "hline", price: 30 });
  });
});

describe("marker and colour helpers", () => {
  it("normalises names, shapes and positions", () => {
    expect(bareName("shape.labeldown")).toBe("labeldown");
    expect(bareName("plot.style_columns")).toBe("columns");
    expect(markerShape("arrowdown")).toBe("arrowDown");
    expect(markerShape("diamond")).toBe("square");
    expect(markerPosition("top", "circle")).toBe("aboveBar");
    expect(markerPosition("", "arrowUp")).toBe("belowBar");
    expect([
      markerSize("size.tiny"),
      markerSize("auto"),
      markerSize(undefined),
      markerSize("normal"),
      markerSize("size.huge"),
    ]).toEqual([0.5, 1, 1, 1.5, 3]);
  });

  it("converts result colours to CSS", () => {
    expect(cssColor("#2962FF")).toBe("#2962FF");
    expect(cssColor("#FF000080")).toBe("rgba(255, 0, 0, 0.502)");
    expect(cssColor(null, "#123456")).toBe("#123456");
    expect(anyColor(0xff0000ff)).toBe("rgba(255, 0, 0, 1)");
    expect(anyColor(NaN)).toBeNull();
  });
});
