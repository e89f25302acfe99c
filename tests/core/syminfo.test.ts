import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { readdirSync, existsSync } from "node:fs";
import { parseSymInfoJson, parseSymInfoToml, resolveSymInfo } from "../../src/core/syminfo.js";
import { parseSession } from "../../src/core/time-sessions.js";
import { CONFORMANCE, readText } from "./fixture.js";

function loadToml(caseName: string) {
  const r = parseSymInfoToml(readText(join(CONFORMANCE, "ta", caseName, "symbol.toml")));
  if ("error" in r) throw new Error(r.error);
  return r;
}

describe("resolveSymInfo", () => {
  it("applies service.md defaults", () => {
    expect(resolveSymInfo()).toMatchObject({
      ticker: "CHART",
      prefix: "",
      mintick: 0.01,
      pointvalue: 1,
      currency: "USD",
      timezone: "UTC",
      type: "crypto",
      session: "24x7",
      pricescale: 100,
      minmove: 1,
    });
  });
  it("takes PREFIX:TICKER from the symbol and lets the user's fields win", () => {
    const s = resolveSymInfo("BINANCE:BTCUSDT", { currency: "USDT", ticker: undefined });
    expect(s.prefix).toBe("BINANCE");
    expect(s.ticker).toBe("BTCUSDT");
    expect(s.currency).toBe("USDT");
    expect(resolveSymInfo("AAPL").ticker).toBe("AAPL");
  });
  it("completes mintick / pricescale / minmove from one another", () => {
    expect(resolveSymInfo("X", { mintick: 0.025 })).toMatchObject({ pricescale: 1000, minmove: 25 });
    expect(resolveSymInfo("X", { pricescale: 1000, minmove: 25 }).mintick).toBeCloseTo(0.025, 15);
    expect(resolveSymInfo("X", { mintick: 1e-5 })).toMatchObject({ pricescale: 100000, minmove: 1 });
  });
});

describe("symbol files", () => {
  it("maps the forex opening hours to TradingView's 1700-1700 session", () => {
    const r = loadToml("timeframe_change");
    expect(r.syminfo).toMatchObject({
      prefix: "CAPITALCOM",
      ticker: "EURUSD",
      type: "forex",
      currency: "USD",
      basecurrency: "EUR",
      mintick: 0.00001,
      pricescale: 100000,
      timezone: "US/Eastern",
      volumetype: "base",
    });
    expect(r.syminfo.session).toBe("1700-1700:23456");
    expect(r.timeframe).toBe("5");
  });
  it("maps a 24x7 symbol and a stock's regular hours", () => {
    expect(loadToml("session_24x7").syminfo.session).toBe("24x7");
    expect(loadToml("session_24x7").syminfo.mincontract).toBe(0.00001);
    expect(loadToml("security_advance_decline_ratio").syminfo).toMatchObject({
      ticker: "SPY",
      type: "fund",
      session: "0930-1600:23456",
      timezone: "America/New_York",
    });
  });
  it("every symbol.toml in the conformance data loads into a valid session", () => {
    const dirs = [join(CONFORMANCE, "ta"), join(CONFORMANCE, "strategy")].flatMap((d) =>
      readdirSync(d).map((n) => join(d, n)),
    );
    let n = 0;
    for (const d of dirs) {
      const f = join(d, "symbol.toml");
      if (!existsSync(f)) continue;
      const r = parseSymInfoToml(readText(f));
      expect("error" in r, f).toBe(false);
      if (!("error" in r)) {
        expect(parseSession(r.syminfo.session as string), `${f}: ${r.syminfo.session}`).not.toBeNull();
        expect(r.syminfo.mintick, f).toBeGreaterThan(0);
      }
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(7);
  });
  it("reads settings.json symbol blocks", () => {
    const r = parseSymInfoJson(readText(join(CONFORMANCE, "strategy", "futures_pnl", "settings.json")));
    expect("error" in r).toBe(false);
    if (!("error" in r)) {
      expect(r.syminfo).toMatchObject({
        prefix: "NYMEX_MINI",
        ticker: "QM1!",
        type: "futures",
        mintick: 0.025,
        pointvalue: 500,
        timezone: "America/New_York",
      });
      expect(r.timeframe).toBe("60");
    }
    const b = parseSymInfoJson(readText(join(CONFORMANCE, "strategy", "barupdn", "settings.json")));
    if (!("error" in b)) {
      expect(b.syminfo.type).toBe("crypto");
      expect(b.syminfo.prefix).toBeUndefined(); // tv_symbol there is prose, not a symbol
    }
  });
  it("reports malformed files", () => {
    expect(parseSymInfoToml("[symbol\nx=")).toHaveProperty("error");
    expect(parseSymInfoJson("[1,2]")).toHaveProperty("error");
    expect(parseSymInfoJson("{")).toHaveProperty("error");
  });
});

describe("validateSymInfo", async () => {
  const { validateSymInfo } = await import("../../src/core/syminfo.js");
  it("accepts good descriptions and names each problem of bad ones", () => {
    expect(
      validateSymInfo(
        resolveSymInfo("FX:EURUSD", { timezone: "America/New_York", session: "1700-1700:23456", mintick: 1e-5 }),
      ),
    ).toBeNull();
    expect(validateSymInfo({})).toBeNull();
    const msg = validateSymInfo({ timezone: "Mars/Olympus", session: "9-5", mintick: 0 });
    expect(msg).toMatch(/Mars\/Olympus/);
    expect(msg).toMatch(/"9-5" is not a session string/);
    expect(msg).toMatch(/mintick must be a positive number/);
  });
});
