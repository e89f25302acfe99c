// ticker.* ids and their parsing back (what request.* reads).
import { describe, expect, it } from "vitest";
import { functions, constants } from "../../src/builtins/ticker/index.js";
import { parseTickerId, formatTickerId, type TickerId } from "../../src/builtins/ticker/ids.js";
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
  it("ticker.new / ticker.modify give the same ids as building them afresh, however the calls alternate", () => {
    // the reference: the id built from the arguments every call (what the builtins did before their memo)
    const mods = (id: TickerId, a: unknown[]): TickerId => {
      const s = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
      const out: TickerId = { ...id };
      if (s(a[0]) !== undefined) out.session = s(a[0]);
      if (s(a[1]) !== undefined) out.adjustment = s(a[1]);
      if (s(a[2]) !== undefined && a[2] !== "inherit") out.backadjustment = s(a[2]);
      if (s(a[3]) !== undefined && a[3] !== "inherit") out.settlement_as_close = s(a[3]);
      return out;
    };
    const prefixes = ["NYSE", "", undefined, "BINANCE", "NYSE:X"];
    const tickers = ["IBM", "GE", "BTCUSDT", "A:B"];
    const sessions = [undefined, "", "extended", "regular", 5];
    const adjs = [undefined, "dividends", "splits", "none", ""];
    const backs = [undefined, "inherit", "on", "off"];
    const settles = [undefined, "inherit", "on", "off", null];
    let seed = 1;
    const pick = <T>(xs: T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return xs[seed % xs.length]!;
    };
    for (let k = 0; k < 3000; k++) {
      const p = pick(prefixes);
      const t = pick(tickers);
      const m = [pick(sessions), pick(adjs), pick(backs), pick(settles)];
      const pre = typeof p === "string" && p !== "" ? p : undefined;
      const want = formatTickerId(mods({ symbol: pre ? `${pre}:${t}` : t, prefix: pre ?? "", ticker: t }, m));
      expect(call("ticker.new", p, t, ...m)).toBe(want);
      const src = pick(["NYSE:IBM", "", undefined, "NASDAQ:AAPL", want, " AAPL"]);
      const base = parseTickerId(typeof src === "string" && src !== "" ? src : "NASDAQ:AAPL")!;
      expect(call("ticker.modify", src, ...m)).toBe(formatTickerId(mods(base, m)));
    }
  });
  it("chart-type ids (heikinashi, renko, linebreak, kagi, pointfigure) equal building them afresh, however the calls alternate", () => {
    // the reference: the id built from the arguments every call (what the builtins did before their memo)
    const clean = (params: Record<string, unknown>) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) out[k] = v;
      return Object.keys(out).length ? out : undefined;
    };
    const fresh = (name: string, a: unknown[]): string => {
      const text = typeof a[0] === "string" && a[0] !== "" ? a[0] : "NASDAQ:AAPL";
      const id = parseTickerId(text)!;
      const kagi2 = typeof a[2] === "string" || typeof a[3] === "string";
      const [type, params]: [string, Record<string, unknown>] =
        name === "ticker.heikinashi"
          ? ["heikinashi", {}]
          : name === "ticker.renko"
            ? ["renko", { style: a[1], param: a[2], request_wicks: a[3] ?? false, source: a[4] ?? "close" }]
            : name === "ticker.linebreak"
              ? ["linebreak", { number_of_lines: a[1] }]
              : name === "ticker.kagi"
                ? [
                    "kagi",
                    kagi2
                      ? { param: typeof a[2] === "string" ? a[1] : a[2], style: typeof a[2] === "string" ? a[2] : a[3] }
                      : { reversal: a[1] },
                  ]
                : ["pointfigure", { source: a[1], style: a[2], param: a[3], reversal: a[4] }];
      return formatTickerId({ ...id, type, params: clean(params) });
    };
    const names = ["ticker.heikinashi", "ticker.renko", "ticker.linebreak", "ticker.kagi", "ticker.pointfigure"];
    const ids = ["NYSE:IBM", "", undefined, "BINANCE:BTCUSDT", "NASDAQ:AAPL"];
    const vals = [undefined, null, "ATR", "Traditional", "hl", "close", 3, 10, 0.5, true, false];
    let seed = 7;
    const pick = <T>(xs: T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return xs[seed % xs.length]!;
    };
    for (let k = 0; k < 3000; k++) {
      const name = pick(names);
      const a = [pick(ids), pick(vals), pick(vals), pick(vals), pick(vals)];
      expect(call(name, ...a), `${name} ${JSON.stringify(a)}`).toBe(fresh(name, a));
    }
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
