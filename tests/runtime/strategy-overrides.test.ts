// A host's strategy() overrides (RuntimeOptions.broker, the app's Properties tab) change the run in
// both modes, and result.meta.strategy_overrides names each with the script's value and the one used.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";

const src = `//@version=6
strategy("t", initial_capital = 5000, pyramiding = 0)
if bar_index % 5 == 0
    strategy.entry("L", strategy.long)
if bar_index % 5 == 3
    strategy.close("L")
`;

describe("strategy() overrides from the host", () => {
  for (const mode of ["interpret", "compile"] as const)
    it(`applies them and says so (${mode})`, async () => {
      const bars = syntheticBars(300);
      const plain = await new Runtime().run(src, bars, { mode });
      expect(plain.meta.strategy_overrides).toBeUndefined();
      expect(plain.strategy?.stats.initial_capital).toBe(5000);
      const rt = new Runtime("CHART", { broker: { initial_capital: 20000, commission_value: 0.1, trade_limit: 10 } });
      const over = await rt.run(src, bars, { mode });
      expect(over.error).toBeUndefined();
      expect(over.strategy?.stats.initial_capital).toBe(20000);
      expect(over.strategy?.stats.commission_paid).toBeGreaterThan(0);
      // host-only settings (trade_limit) are not strategy() properties and are not listed
      expect(over.meta.strategy_overrides).toEqual({
        initial_capital: { script: 5000, used: 20000 },
        commission_value: { script: null, used: 0.1 },
      });
    });
});
