// The verifier refuses an alert that never fires. The offline grammar used to join two alert clauses
// ("alert when rsi crosses below 30, alert when rsi crosses above 70") into one condition that never
// holds; it now writes one alert per clause (request-table rows), and this guard stays for any
// backend that writes such a script.
import { describe, expect, it } from "vitest";
import { emptyIntent, expectationsOf } from "../../src/generate/intent.js";
import { verify } from "../../src/generate/verify.js";

const expectAlerts = { ...expectationsOf(emptyIntent()), alerts: true };

const script = (cond: string): string => `//@version=6
indicator("RSI alerts", overlay = false)
rsiValue = ta.rsi(close, 14)
cond = ${cond}
if cond
    alert("RSI", alert.freq_once_per_bar_close)
alertcondition(cond, title = "RSI", message = "RSI on {{ticker}}")
plot(rsiValue, "RSI 14")
`;

describe("resin generate: the verifier's alert check", () => {
  it("refuses an alert whose condition never holds (two clauses joined with 'and')", async () => {
    const v = await verify(script("ta.crossunder(rsiValue, 30) and ta.crossover(rsiValue, 70)"), expectAlerts);
    expect(v.ok).toBe(false);
    expect(v.checks.find((c) => c.name === "alerts")?.detail).toMatch(/no alert fired on the sample bars/);
  });

  it("accepts the same alternatives joined with 'or'", async () => {
    const v = await verify(script("ta.crossunder(rsiValue, 30) or ta.crossover(rsiValue, 70)"), expectAlerts);
    expect(v.checks.find((c) => c.name === "alerts")).toMatchObject({ ok: true });
    expect(v.run?.alerts).toBeGreaterThan(0);
  });
});
