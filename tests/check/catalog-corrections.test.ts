// Where scripts/builtins.json disagrees with TradingView's reference manual, the reference wins
// (OPTIONAL_CORRECTIONS in scripts/gen-catalog.mjs; docs/compatibility.md, "Spec vs TradingView").
import { describe, expect, it } from "vitest";
import { series, v5, v6 } from "../helpers/run-both.js";

describe("catalogue corrections from the reference manual", () => {
  it("math.random() takes min 0 and max 1 by default (v6 and v5, both modes)", async () => {
    for (const wrap of [v6, v5]) {
      const s = await series(wrap("r = math.random()\nplot(r >= 0 and r < 1 ? 1 : 0)\nplot(math.random(5))"));
      const [inRange, fromFive] = Object.values(s).map((x) => x as (number | null)[]);
      expect(inRange.every((v) => v === 1)).toBe(true);
      // min 5, max 1 by default: values between 1 and 5
      expect(fromFive.every((v) => v !== null && v > 1 && v < 5)).toBe(true);
    }
  });
});
