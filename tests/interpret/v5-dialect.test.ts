// Pine v5 scripts the way traders wrote them (many converted from v4): the v5 dialect differences
// that src/catalog/v5.ts covers (transp, series offset, the v5 colour palette), every script through
// run-both (interpret and compile identical). Expected colours come from the v5 reference manual
// ("color.red: Is a named constant for #FF5252 color") and the transparency rule of color.new
// (alpha = round(255 * (100 - transp) / 100)).
import { describe, expect, it } from "vitest";
import { bars, runBoth, v5, v6 } from "../helpers/run-both.js";

const data = bars(20);
const N = data.length;
const fill = <T>(v: T): T[] => Array(N).fill(v);
/** A colour as the run reports it: #RRGGBB when opaque, else #RRGGBBAA with alpha = round(255 * (100 - transp) / 100). */
const hex = (rgb: string, transp = 0): string => {
  const a = Math.round((255 * (100 - transp)) / 100);
  return a === 255 ? rgb : rgb + a.toString(16).toUpperCase().padStart(2, "0");
};

async function ok(src: string, d = data) {
  const r = await runBoth(src, d);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r;
}

const maCross = `//@version=5
indicator("MA Cross (converted from v4)", overlay=true)
fastLen = input(3, title="Fast Length")
slowLen = input(6, title="Slow Length")
src = input(close, title="Source")
fast = ta.ema(src, fastLen)
slow = ta.sma(src, slowLen)
up = fast > slow
plot(fast, color=up ? color.lime : color.red, transp=0, linewidth=2, title="Fast")
plot(slow, color=color.orange, transp=30, title="Slow")
bgcolor(up ? color.green : color.red, transp=90)
plotshape(ta.crossover(fast, slow), style=shape.triangleup, location=location.belowbar, color=color.lime, transp=0, title="Buy")
plotchar(ta.crossunder(fast, slow), char="x", location=location.abovebar, color=color.red, transp=20, title="Sell")
plot(up ? 1 : 0, title="Up", display=display.none)
`;

describe("v5 dialect: transp (deprecated in v5, removed in v6)", () => {
  it("a converted MA-cross script: transp on plot, bgcolor, plotshape and plotchar applies to each colour", async () => {
    const r = await ok(maCross);
    const up = r.series["Up"]!.map((v) => v === 1);
    expect(up.some((u) => u) && up.some((u) => !u)).toBe(true);
    // a bar whose value is na has no colour
    const fast = r.series["Fast"]!;
    expect(fast.slice(0, 2)).toEqual([null, null]);
    expect(r.plot_colors!["Fast"]).toEqual(
      up.map((u, i) => (fast[i] === null ? null : u ? hex("#00E676") : hex("#FF5252"))),
    );
    expect(r.plot_meta["Slow"]!.color).toBe(hex("#FF9800", 30));
    const bg = Object.entries(r.plot_meta).find(([, m]) => m.kind === "bgcolor")![0];
    expect(r.series[bg]).toEqual(up.map((u) => (u ? hex("#4CAF50", 90) : hex("#FF5252", 90))));
    expect(r.plot_meta["Buy"]!.color).toBe(hex("#00E676"));
    expect(r.plot_meta["Sell"]!.color).toBe(hex("#FF5252", 20));
  });
  it("fill and plotarrow take transp on their colours (plotarrow: colorup and colordown)", async () => {
    const r = await ok(
      v5(
        "p1 = plot(high, title='H')\np2 = plot(low, title='L')\nfill(p1, p2, color=color.teal, transp=70, title='Band')\nplotarrow(close - open, colorup=color.teal, colordown=color.orange, transp=30, title='Arrows')",
      ),
    );
    expect(r.plot_meta["Band"]!.color).toBe(hex("#00897B", 70));
    expect(r.plot_meta["Arrows"]!.color).toBe(hex("#00897B", 30));
    expect((r.plot_meta["Arrows"] as Record<string, unknown>).colordown).toBe(hex("#FF9800", 30));
  });
  it("a positional colour takes transp too; transp without a colour makes plot's default blue transparent", async () => {
    const r = await ok(
      v5(
        "plot(close, 'A', color.red, transp=50)\nplot(close, 'B', transp=60)\nfill(plot(open), plot(close), color.yellow, transp=10)",
      ),
    );
    expect(r.plot_meta["A"]!.color).toBe(hex("#FF5252", 50));
    expect(r.plot_meta["B"]!.color).toBe(hex("#2962FF", 60));
    expect(Object.values(r.plot_meta).find((m) => m.kind === "fill")!.color).toBe(hex("#FFEB3B", 10));
  });
  it("transp from an input and a colour that already has transparency (transp replaces it, like color.new)", async () => {
    const r = await ok(
      v5("t = input.int(40, 'Transparency')\nplot(close, color=color.new(color.blue, 90), transp=t, title='P')"),
    );
    expect(r.plot_meta["P"]!.color).toBe(hex("#2962FF", 40));
    const r2 = await runBoth(
      v5("t = input.int(40, 'Transparency')\nplot(close, color=color.new(color.blue, 90), transp=t, title='P')"),
      data,
      { inputs: { Transparency: 75 } },
    );
    expect(r2.plot_meta["P"]!.color).toBe(hex("#2962FF", 75));
  });
  it("v6 still refuses transp (the parameter was removed)", async () => {
    const r = await runBoth(v6("plot(close, color=color.red, transp=40)"), data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toMatch(/'plot' has no parameter 'transp'/);
  });
});

describe("v5 dialect: plot-family offset accepts a series int", () => {
  it("plot, plotshape and bgcolor with a series offset run; the plotted values are the series itself", async () => {
    const r = await ok(
      v5(
        "shift = bar_index > 5 ? 2 : 0\nplot(close, offset=shift, title='C')\nplotshape(close > open, offset=shift, title='S')\nbgcolor(color.red, offset=shift)",
      ),
    );
    expect(r.series["C"]).toEqual(data.map((b) => b.close));
    expect(r.series["S"]).toEqual(data.map((b) => (b.close > b.open ? true : null)));
  });
  it("v6 refuses a series offset (simple int)", async () => {
    const r = await runBoth(v6("plot(close, offset=bar_index % 2)"), data);
    expect(r.error).toMatch(/argument 'offset'=series int: expected simple int/);
  });
});

describe("v5 dialect: the v5 colour palette", () => {
  const rgb = (c: string) => `color.r(${c}) * 1000000 + color.g(${c}) * 1000 + color.b(${c})`;
  const num = (h: string) =>
    parseInt(h.slice(1, 3), 16) * 1e6 + parseInt(h.slice(3, 5), 16) * 1e3 + parseInt(h.slice(5, 7), 16);
  // every value from the v5 reference manual's "Is a named constant for #...... color." lines
  const v5Palette: Record<string, string> = {
    aqua: "#00BCD4",
    black: "#363A45",
    blue: "#2962FF",
    fuchsia: "#E040FB",
    gray: "#787B86",
    green: "#4CAF50",
    lime: "#00E676",
    maroon: "#880E4F",
    navy: "#311B92",
    olive: "#808000",
    orange: "#FF9800",
    purple: "#9C27B0",
    red: "#FF5252",
    silver: "#B2B5BE",
    teal: "#00897B",
    white: "#FFFFFF",
    yellow: "#FFEB3B",
  };
  it("all seventeen named colours have their v5 values", async () => {
    const names = Object.keys(v5Palette);
    const r = await ok(v5(names.map((n) => `plot(${rgb(`color.${n}`)}, title='${n}')`).join("\n")));
    for (const n of names) expect(r.series[n], n).toEqual(fill(num(v5Palette[n]!)));
  });
  it("red, teal and yellow differ between v5 and v6 in the same script text", async () => {
    const body = ["red", "teal", "yellow"].map((n) => `plot(${rgb(`color.${n}`)}, title='${n}')`).join("\n");
    const a = await ok(v5(body));
    const b = await ok(v6(body));
    expect([a.series.red![0], a.series.teal![0], a.series.yellow![0]]).toEqual([
      num("#FF5252"),
      num("#00897B"),
      num("#FFEB3B"),
    ]);
    expect([b.series.red![0], b.series.teal![0], b.series.yellow![0]]).toEqual([
      num("#F23645"),
      num("#089981"),
      num("#FDD835"),
    ]);
  });
  it("v5 constants flow through variables, color.new with a series transparency, and input.color defaults", async () => {
    const r = await ok(
      v5(
        "c = input.color(color.red, 'Col')\nvar color k = color.teal\nplot(close, color=color.new(c, bar_index % 2 == 0 ? 0 : 50), title='P')\nplot(color.g(k), title='G')",
      ),
    );
    expect(r.plot_colors!["P"]).toEqual(data.map((_, i) => hex("#FF5252", i % 2 === 0 ? 0 : 50)));
    expect(r.series["G"]).toEqual(fill(0x89));
  });
});

describe("v5 dialect: forms v5 scripts use that already matched v6", () => {
  it("untyped input() forms: int, float, bool, string and a source", async () => {
    const r = await ok(
      v5(
        "len = input(3, 'Length')\nm = input(1.5, title='Mult')\nb = input(true, 'On')\ns = input('abc', 'Text')\nsrc = input(close, 'Source')\nplot(ta.sma(src, len) * m, title='X')\nplot(b and s == 'abc' ? 1 : 0, title='Y')",
      ),
    );
    const sma3 = data.map((_, i) =>
      i < 2 ? null : ((data[i]!.close + data[i - 1]!.close + data[i - 2]!.close) / 3) * 1.5,
    );
    r.series["X"]!.forEach((v, i) => {
      if (sma3[i] === null) expect(v).toBeNull();
      else expect(v).toBeCloseTo(sma3[i]!, 9);
    });
    expect(r.series["Y"]).toEqual(fill(1));
    expect(r.inputs.map((i) => i.title)).toEqual(["Length", "Mult", "On", "Text", "Source"]);
  });
  // values.ts represents bool as a JS boolean (no na), so v5's na bool reads as false: a contract change
  it.fails("a v5 bool can be na and its history before the first bar is na (bool has no na in values.ts: reads false)", async () => {
    const r = await ok(
      v5("bool b = na\nc = close > open\nplot(na(b) ? 1 : 0, title='A')\nplot(na(c[1]) ? 1 : 0, title='B')"),
    );
    expect(r.series["A"]).toEqual(fill(1));
    expect(r.series["B"]).toEqual([1, ...Array(N - 1).fill(0)]);
  });
});

describe("v5 dialect: a squeeze-momentum style indicator converted from v4", () => {
  const squeeze = `//@version=5
indicator(title="Squeeze Momentum (converted)", shorttitle="SQZ", overlay=false)
length = input(5, title="BB Length")
mult = input(2.0, title="BB MultFactor")
lengthKC = input(5, title="KC Length")
multKC = input(1.5, title="KC MultFactor")
source = close
basis = ta.sma(source, length)
dev = multKC * ta.stdev(source, length)
upperBB = basis + dev
lowerBB = basis - dev
ma = ta.sma(source, lengthKC)
rangema = ta.sma(ta.tr, lengthKC)
upperKC = ma + rangema * multKC
lowerKC = ma - rangema * multKC
sqzOn = (lowerBB > lowerKC) and (upperBB < upperKC)
val = ta.linreg(source - math.avg(math.avg(ta.highest(high, lengthKC), ta.lowest(low, lengthKC)), ta.sma(close, lengthKC)), lengthKC, 0)
bcolor = val > 0 ? (val > nz(val[1]) ? color.lime : color.green) : (val < nz(val[1]) ? color.red : color.maroon)
scolor = sqzOn ? color.black : color.gray
plot(val, color=bcolor, style=plot.style_histogram, linewidth=4, title="Momentum")
plot(0, color=scolor, style=plot.style_cross, linewidth=2, transp=20, title="Squeeze")
`;
  it("histogram colours follow the momentum with v5's red; the cross line takes transp", async () => {
    // a wave, so the momentum rises and falls on both sides of zero
    const wave = bars(120).map((b, i) => {
      const c = 100 + 10 * Math.sin(i / 5);
      return { ...b, open: c - 0.5, high: c + 1, low: c - 1, close: c };
    });
    const r = await ok(squeeze, wave);
    const val = r.series["Momentum"]! as (number | null)[];
    const want = val.map((v, i) => {
      if (v === null) return null;
      const prev = i > 0 && val[i - 1] !== null ? val[i - 1]! : 0;
      return v > 0 ? (v > prev ? "#00E676" : "#4CAF50") : v < prev ? "#FF5252" : "#880E4F";
    });
    expect(want.filter((c) => c !== null).length).toBeGreaterThan(10);
    expect(new Set(want.filter((c) => c !== null)).size).toBe(4);
    expect(r.plot_colors!["Momentum"]).toEqual(want);
    const sq = r.plot_colors?.["Squeeze"] ?? [r.plot_meta["Squeeze"]!.color];
    for (const c of sq) expect([hex("#363A45", 20), hex("#787B86", 20)]).toContain(c);
  });
});

describe("v5 dialect: lenient where TradingView v5 is strict (docs/compatibility.md)", () => {
  it("a series length where v5 documents simple int runs, with the per-bar length", async () => {
    const r = await ok(v5("len = bar_index % 2 == 0 ? 1 : 2\nplot(ta.sma(close, len), title='S')"));
    expect(r.series["S"]).toEqual(data.map((b, i) => (i % 2 === 0 ? b.close : (b.close + data[i - 1]!.close) / 2)));
  });
  it("a v6-only parameter (plot's linestyle) in a v5 script runs", async () => {
    const r = await ok(v5("plot(close, linestyle = plot.linestyle_dashed, title='P')"));
    expect(r.series["P"]).toEqual(data.map((b) => b.close));
  });
});

describe("v5 dialect: a converted strategy (when=, transp, series offset together)", () => {
  const strat = `//@version=5
strategy("Breakout (converted)", overlay=true, default_qty_type=strategy.fixed, default_qty_value=1)
len = input(3, title="Lookback")
hh = ta.highest(high, len)[1]
ll = ta.lowest(low, len)[1]
longCond = close > hh
exitCond = close < ll
strategy.entry("Long", strategy.long, when=longCond)
strategy.close("Long", when=exitCond)
inPos = strategy.position_size > 0
bgcolor(inPos ? color.green : na, transp=85, offset=inPos ? 0 : 0)
plot(hh, color=color.red, transp=50, title="HH", offset=len > 2 ? 0 : 1)
plot(strategy.position_size, title="Pos", display=display.none)
`;
  it("orders follow the when= conditions; the band and background take their v5 colours with transp", async () => {
    const wave = bars(60).map((b, i) => {
      const c = 100 + 8 * Math.sin(i / 4);
      return { ...b, open: c - 0.2, high: c + 0.5, low: c - 0.5, close: c };
    });
    const r = await ok(strat, wave);
    // expected position: long from the bar after a breakout above the prior 3-bar high until the bar after a close below the prior 3-bar low
    const hh = wave.map((_, i) => (i < 3 ? NaN : Math.max(wave[i - 1]!.high, wave[i - 2]!.high, wave[i - 3]!.high)));
    const ll = wave.map((_, i) => (i < 3 ? NaN : Math.min(wave[i - 1]!.low, wave[i - 2]!.low, wave[i - 3]!.low)));
    const pos: number[] = [];
    let p = 0;
    let pending = 0;
    for (let i = 0; i < wave.length; i++) {
      if (pending !== 0) p = pending > 0 ? 1 : 0;
      pending = 0;
      pos.push(p);
      if (wave[i]!.close > hh[i]! && p === 0) pending = 1;
      if (wave[i]!.close < ll[i]! && p > 0) pending = -1;
    }
    expect(pos.some((x) => x === 1) && pos.some((x, i) => i > 10 && x === 0)).toBe(true);
    expect(r.series["Pos"]).toEqual(pos);
    expect(r.plot_meta["HH"]!.color).toBe(hex("#FF5252", 50));
    const bg = Object.entries(r.plot_meta).find(([, m]) => m.kind === "bgcolor")![0];
    expect(r.series[bg]).toEqual(pos.map((x) => (x > 0 ? hex("#4CAF50", 85) : null)));
  });
});
