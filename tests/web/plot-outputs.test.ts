// plot_ohlc and plot_colors (result additions, docs/compatibility.md): plotcandle/plotbar prices per
// bar, and a colour column only for plots whose colour changes across bars. Both modes must agree.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

describe("plot_ohlc", () => {
  it("holds open/high/low/close per bar for plotcandle and plotbar, series keeps the close", async () => {
    const src = `//@version=6
indicator("o")
plotcandle(open, high, low, close, "c", wickcolor = color.gray, bordercolor = color.black)
plotbar(open + 1, high + 1, low + 1, bar_index == 2 ? na : close + 1, "b")
plot(close, "p")
`;
    const data = bars(6);
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.plot_ohlc!)).toEqual(["c", "b"]);
    expect(r.plot_ohlc!.c).toEqual({
      open: data.map((b) => b.open),
      high: data.map((b) => b.high),
      low: data.map((b) => b.low),
      close: data.map((b) => b.close),
    });
    expect(r.plot_ohlc!.b!.open).toEqual(data.map((b) => b.open + 1));
    expect(r.plot_ohlc!.b!.close).toEqual(data.map((b, i) => (i === 2 ? null : b.close + 1)));
    expect(r.series.c).toEqual(data.map((b) => b.close));
    expect(r.plot_meta.c).toMatchObject({ kind: "plotcandle", wickcolor: "#787B86", bordercolor: "#363A45" });
    expect(r.plot_colors).toBeUndefined(); // constant colours cost no column
  });

  it("is absent when the script has no plotcandle/plotbar", async () => {
    const r = await runBoth(`//@version=6\nindicator("x")\nplot(close)\n`, bars(4));
    expect(r.plot_ohlc).toBeUndefined();
    expect(r.plot_colors).toBeUndefined();
  });

  it("records per-bar candle, wick and border colours when they vary", async () => {
    const src = `//@version=6
indicator("o")
up = close > open
plotcandle(open, high, low, close, "c", up ? color.green : color.red, wickcolor = up ? color.lime : color.maroon, bordercolor = color.black)
`;
    const data = bars(6);
    const r = await runBoth(src, data);
    const up = data.map((b) => b.close > b.open);
    expect(r.plot_colors!.c).toEqual(up.map((u) => (u ? "#4CAF50" : "#F23645")));
    expect(r.plot_ohlc!.c!.wickcolor).toEqual(up.map((u) => (u ? "#00E676" : "#880E4F")));
    expect(r.plot_ohlc!.c!.bordercolor).toBeUndefined();
  });
});

describe("plot_colors", () => {
  it("a plot whose colour follows the bar gets a column; a constant-colour plot does not", async () => {
    const src = `//@version=6
indicator("x")
plot(close, "dir", close > open ? color.green : color.red)
plot(open, "flat", color.blue)
plotshape(close > open, "s", color = bar_index % 2 == 0 ? color.orange : color.purple)
plotchar(true, "ch", "x", color = bar_index < 3 ? na : color.teal)
`;
    const data = bars(9);
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.plot_colors!).sort()).toEqual(["ch", "dir", "s"]);
    expect(r.plot_colors!.dir).toEqual(data.map((b) => (b.close > b.open ? "#4CAF50" : "#F23645")));
    // shapes: a colour only where the shape is drawn
    expect(r.plot_colors!.s).toEqual(
      data.map((b, i) => (b.close > b.open ? (i % 2 === 0 ? "#FF9800" : "#9C27B0") : null)),
    );
    // na colour (hidden point) is null
    expect(r.plot_colors!.ch).toEqual(data.map((_, i) => (i < 3 ? null : "#089981")));
  });

  it("a colour that first changes late still reports the earlier bars' colour", async () => {
    const r = await runBoth(
      `//@version=6\nindicator("x")\nplot(close, "p", bar_index >= 4 ? color.red : color.blue)\n`,
      bars(6),
    );
    expect(r.plot_colors!.p).toEqual(["#2962FF", "#2962FF", "#2962FF", "#2962FF", "#F23645", "#F23645"]);
  });
});
