// Reused memory between runs (issue 18): event-log chunks and plot columns of collected runs serve
// the next runs. A run that reuses them must give exactly the events and plots of a first run, even
// when the earlier run wrote more events and other values into the same memory.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects garbage and lets the finalization callbacks run. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

const strategy = (every: number) => `//@version=6
strategy("s")
if bar_index % ${every} == 0
    strategy.entry("L", strategy.long, comment = "e" + str.tostring(bar_index))
strategy.exit("X", "L", stop = close * 0.99, comment = "x")
plot(strategy.position_size * ${every})
plot(close * ${every})
`;

describe("memory reused between runs", () => {
  it("events and plots are the same after chunks and columns of collected runs are reused", async () => {
    const bars = syntheticBars(3000);
    const first = JSON.stringify(await new Runtime().run(strategy(7), bars, { mode: "compile" }));
    for (const mode of ["interpret", "compile"] as const) {
      // a run with other events and values, dropped and collected, then the first script again
      let other: unknown = await new Runtime().run(strategy(3), bars, { mode });
      expect(JSON.stringify(other)).not.toBe(first);
      other = null;
      await collect();
      const again = JSON.parse(JSON.stringify(await new Runtime().run(strategy(7), bars, { mode })));
      const base = JSON.parse(first);
      // (run_id differs from run to run)
      const events = (r: { events: { run_id?: string }[] }) => r.events.map(({ run_id: _r, ...e }) => e);
      expect(events(again), `${mode} events`).toEqual(events(base));
      for (const k of ["series", "strategy"]) expect(again[k], `${mode} ${k}`).toEqual(base[k]);
    }
  }, 60_000);
});
