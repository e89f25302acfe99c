// ticker.* ids and their parsing back (what request.* reads).
import { describe, expect, it } from "vitest";
import { functions, constants } from "../../src/builtins/ticker/index.js";
import { parseTickerId, formatTickerId } from "../../src/builtins/ticker/ids.js";
import { makeCtx, site } from "../core/fixture.js";
import { normalizeBars, isBarDataError } from "../../src/core/bars.js";
import { runBoth, v6 } from "../helpers/run-both.js";

const cols = normalizeBars([{ time: 0, open: 1, high: 1, low: 1, close: 1 }]);
if (isBarDataError(cols)) throw new Error(cols.error);
const ctx = makeCtx(cols, { prefix: "NASDAQ", ticker: "AAPL" }).at(0);
const call = (name: string, ...args: unknown[]) => functions[name]!.impl(ctx, args, site());

describe("ticker.*", () => {
  it("ticker.new without modifiers is the plain id; with them a parseable id", () => {
    expect(call("ticker.new", "NYSE", "IBM")).toBe("NYSE:IBM");
    const ext = call("ticker.new", "NYSE", "IBM", "extended", constants["adjustment.dividends"]);
    expect(parseTickerId(ext)).toMatchObject({
      symbol: "NYSE:IBM",
      prefix: "NYSE",
      ticker: "IBM",
      session: "extended",
      adjustment: "dividends",
    });
  });
  it("modify / standard / inherit", () => {
    const mod = call("ticker.modify", "NYSE:IBM", "extended");
    expect(parseTickerId(mod)!.session).toBe("extended");
    expect(call("ticker.standard", mod)).toBe("NYSE:IBM");
    expect(call("ticker.standard")).toBe("NASDAQ:AAPL"); // the chart symbol
    expect(parseTickerId(call("ticker.inherit", mod, "NYSE:GE"))).toMatchObject({
      symbol: "NYSE:GE",
      session: "extended",
    });
  });
  it("non-standard chart types carry their parameters", () => {
    expect(parseTickerId(call("ticker.heikinashi", "NYSE:IBM"))).toMatchObject({
      symbol: "NYSE:IBM",
      type: "heikinashi",
    });
    expect(parseTickerId(call("ticker.renko", "NYSE:IBM", "ATR", 10))).toMatchObject({
      type: "renko",
      params: { style: "ATR", param: 10, request_wicks: false, source: "close" },
    });
    expect(parseTickerId(call("ticker.linebreak", "NYSE:IBM", 3))).toMatchObject({
      type: "linebreak",
      params: { number_of_lines: 3 },
    });
    expect(parseTickerId(call("ticker.kagi", "NYSE:IBM", 3))).toMatchObject({ type: "kagi", params: { reversal: 3 } });
    expect(parseTickerId(call("ticker.pointfigure", "NYSE:IBM", "hl", "ATR", 14, 3))).toMatchObject({
      type: "pointfigure",
      params: { source: "hl", style: "ATR", param: 14, reversal: 3 },
    });
  });
  it("ids round-trip and bad ids are refused", () => {
    expect(formatTickerId(parseTickerId("BINANCE:BTCUSDT")!)).toBe("BINANCE:BTCUSDT");
    expect(parseTickerId("AAPL")).toMatchObject({ prefix: "", ticker: "AAPL" });
    expect(parseTickerId("={bad")).toBeNull();
    expect(parseTickerId('={"session":"x"}')).toBeNull();
    expect(parseTickerId("")).toBeNull();
  });
  it("works from a script", async () => {
    const r = await runBoth(
      v6(
        `t = ticker.new("NYSE", "IBM", session.extended)\nif barstate.islast\n    log.info(ticker.standard(t) + "|" + syminfo.ticker(t))`,
      ),
      [{ time: 0, open: 1, high: 1, low: 1, close: 1 }],
    );
    expect(r.error).toBeUndefined();
    expect(r.logs[0]!.message).toBe("NYSE:IBM|IBM");
  });
});
