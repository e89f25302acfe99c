// indicator(timeframe = "D", timeframe_gaps = ...) on a lower chart timeframe: the script is calculated
// on the indicator's timeframe and its outputs are shown on the chart's bars (reference: indicator()),
// which is request.security of the chart's symbol for every output (src/check/indicator-timeframe.ts).
// It used to be ignored: the script ran on the chart's bars, a silent wrong answer.
import { describe, expect, it } from "vitest";
import { runBoth } from "../helpers/run-both.js";
import { randomWalkBars } from "../realworld/bars.js";

const hourly = randomWalkBars(24 * 20, 7);
const opts = { runtime: { timeframe: "60" } };

describe("indicator(timeframe = ...)", () => {
  it("a daily indicator on an hourly chart gives the daily values where each daily bar closes (gaps on by default)", async () => {
    const body =
      "r = ta.rsi(close, 5)\nplot(r, 'rsi')\nplot(bar_index, 'bi')\nbgcolor(close > open ? color.green : na)\n";
    const mtf = await runBoth(`//@version=6\nindicator('t', timeframe = 'D')\n${body}`, hourly, opts);
    expect(mtf.error).toBeUndefined();
    const ref = await runBoth(
      "//@version=6\nindicator('t')\nr = ta.rsi(close, 5)\n" +
        "plot(request.security(syminfo.tickerid, 'D', r, gaps = barmerge.gaps_on), 'rsi')\n" +
        "plot(request.security(syminfo.tickerid, 'D', bar_index, gaps = barmerge.gaps_on), 'bi')\n" +
        "bgcolor(request.security(syminfo.tickerid, 'D', close > open ? color.green : na, gaps = barmerge.gaps_on))\n",
      hourly,
      opts,
    );
    expect(mtf.series).toEqual(ref.series);
    // one daily value per day, at the day's last hourly bar: bar_index counts days there
    const bi = mtf.series["bi"]!;
    const shown = bi.map((v, i) => [i, v]).filter(([, v]) => v !== null);
    expect(shown.length).toBeGreaterThanOrEqual(19);
    for (const [i, v] of shown) {
      expect((i as number) % 24).toBe(23);
      expect(v).toBe(Math.floor((i as number) / 24));
    }
  });
  it("timeframe_gaps = false repeats the last daily value on every chart bar", async () => {
    const r = await runBoth(
      "//@version=6\nindicator('t', timeframe = 'D', timeframe_gaps = false)\nplot(bar_index, 'bi')\n",
      hourly,
      opts,
    );
    const bi = r.series["bi"]!;
    expect(bi.slice(24).every((v) => v !== null)).toBe(true);
    expect(bi[24 * 5 + 10]).toBe(4);
  });
  it("the chart's own timeframe (or an empty one) leaves the script as it is, compiled", async () => {
    const plain = await runBoth("//@version=6\nindicator('t')\nplot(ta.sma(close, 5), 'm')\n", hourly, opts);
    for (const tf of ["60", ""]) {
      const same = await runBoth(
        `//@version=6\nindicator('t', timeframe = '${tf}')\nplot(ta.sma(close, 5), 'm')\n`,
        hourly,
        opts,
      );
      expect(same.series).toEqual(plain.series);
    }
  });
  it("is refused with drawings or alert(), as the reference says", async () => {
    const r = await runBoth(
      "//@version=6\nindicator('t', timeframe = '240')\nplot(close)\nif barstate.islast\n    label.new(bar_index, close, 'x')\n",
      hourly,
      opts,
    );
    expect(r.error_kind).toBe("check");
    expect(r.error).toContain("cannot be used in a script that uses drawings or alert()");
    expect(r.diagnostics?.[0]).toMatchObject({ line: 5 });
  });
});
