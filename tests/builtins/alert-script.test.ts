// alert() and alertcondition() through the public Runtime (the registry of src/builtins/index.ts).
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import type { RunResult } from "../../src/core/result.js";

async function ok(source: string, n = 10, opts = {}): Promise<RunResult> {
  const r = await runBoth(source, bars(n), opts);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r;
}

describe("alerts through the Runtime", () => {
  it("alert() on historical bars records every call with its bar", async () => {
    const r = await ok(
      v6(
        "if close > open\n    alert('up ' + str.tostring(bar_index))\nalert('every bar', alert.freq_all)\nplot(close)",
      ),
    );
    const data = bars(10);
    const up = data.map((b, i) => (b.close > b.open ? i : -1)).filter((i) => i >= 0);
    expect(r.alerts.filter((a) => a.message.startsWith("up ")).map((a) => a.bar_index)).toEqual(up);
    expect(r.alerts.filter((a) => a.message === "every bar").length).toBe(10);
    expect(r.alerts[0]).toMatchObject({ source: "alert", time: data[r.alerts[0]!.bar_index]!.time });
  });

  it("realtime ticks: once_per_bar once, all per tick, once_per_bar_close at the close", async () => {
    const src =
      "alert('once')\nalert('all', alert.freq_all)\nalert('close', alert.freq_once_per_bar_close)\nplot(close)";
    const r = await ok(v6(src), 5, { realtimeLastBar: true, realtimeTicks: 3 });
    const on4 = (m: string) => r.alerts.filter((a) => a.bar_index === 4 && a.message === m).length;
    expect([on4("once"), on4("all"), on4("close")]).toEqual([1, 3, 1]);
    expect(r.alerts.filter((a) => a.bar_index < 4).length).toBe(12);
  });

  it("alertcondition(): declared conditions with the bars they fired on and resolved placeholders", async () => {
    const r = await ok(
      v6(
        "p = plot(close, 'C')\nalertcondition(close > open, 'Up bar', 'up at {{close}} ({{plot_0}}) on {{ticker}}')\nalertcondition(false, 'Never')",
      ),
    );
    const data = bars(10);
    const up = data.map((b, i) => (b.close > b.open ? i : -1)).filter((i) => i >= 0);
    expect(r.alert_conditions).toEqual([
      {
        title: "Up bar",
        message: "up at {{close}} ({{plot_0}}) on {{ticker}}",
        fired_bars: up,
        fired_times: up.map((i) => data[i]!.time),
      },
      { title: "Never", message: "", fired_bars: [], fired_times: [] },
    ]);
    const fired = r.alerts.filter((a) => a.source === "alertcondition");
    expect(fired.map((a) => a.bar_index)).toEqual(up);
    const c = data[up[0]!]!.close;
    expect(fired[0]!.message).toBe(`up at ${c} (${c}) on CHART`);
  });
});
