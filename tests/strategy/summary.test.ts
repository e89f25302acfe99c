// The text summary `resin run` prints for a strategy.
import { describe, expect, it } from "vitest";
import { formatStrategySummary } from "../../src/strategy/index.js";
import { columnsOf, makeCtx, replay } from "./harness.js";

describe("formatStrategySummary", () => {
  it("prints the headline figures of a run", () => {
    // Long 1 at 101 closed at 103: net profit 2, one winning trade.
    const ctx = makeCtx(
      columnsOf([
        [100, 100, 100, 100],
        [101, 101, 101, 101],
        [103, 103, 103, 103],
      ]),
      { type: "stock" },
    );
    const { result } = replay(ctx, { initial_capital: 1000 }, (i, c, b) => {
      if (i === 0) b.entry({ id: "L", direction: "long" }, c);
      if (i === 1) b.close({ id: "L" }, c);
    });
    const text = formatStrategySummary(result);
    expect(text).toMatch(/Net profit\s+2\.00 \(0\.20%\)/);
    expect(text).toMatch(/Closed trades\s+1/);
    expect(text).toMatch(/Percent profitable\s+100\.00%/);
    expect(text).toMatch(/Profit factor\s+n\/a/);
  });
});
