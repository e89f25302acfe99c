// Edge storage keys escape their parts: no two symbol/timeframe pairs share a key.

import { describe, expect, it } from "vitest";
import { barsKey } from "../../src/edge/store.js";

describe("barsKey", () => {
  it("escapes the separator inside symbols and timeframes", () => {
    expect(barsKey("A:B", "C")).not.toBe(barsKey("A", "B:C"));
    expect(barsKey("BINANCE:BTCUSDT", "60")).toBe("bars:BINANCE%3ABTCUSDT:60");
    expect(barsKey("TEST", "1")).toBe("bars:TEST:1");
  });
});
