// result.events is built from the broker's event log on first read; until then it is an accessor
// that JSON, structured clone and spreads read like the plain array it becomes.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";

const src = `//@version=6
strategy("t")
if bar_index % 5 == 0
    strategy.entry("L", strategy.long)
strategy.exit("X", "L", profit = 50, loss = 50)
`;

describe("lazy strategy events", () => {
  it("reads the same through JSON, structured clone, spread and direct access", async () => {
    const rt = new Runtime();
    const a = await rt.run(src, syntheticBars(200), { mode: "interpret" });
    expect(typeof Object.getOwnPropertyDescriptor(a, "events")?.get).toBe("function");
    const viaJson = JSON.parse(JSON.stringify(a)).events;
    const b = await rt.run(src, syntheticBars(200), { mode: "interpret" });
    const viaClone = structuredClone(b).events;
    const c = await rt.run(src, syntheticBars(200), { mode: "compile" });
    const viaSpread = { ...c }.events;
    const direct = a.events;
    expect(Object.getOwnPropertyDescriptor(a, "events")?.value).toBe(direct);
    expect(direct.length).toBeGreaterThan(40);
    const strip = (e: typeof direct) => e.map(({ run_id: _r, ...x }) => x);
    expect(strip(viaJson)).toEqual(strip(direct));
    expect(strip(viaClone)).toEqual(strip(direct));
    expect(strip(viaSpread)).toEqual(strip(direct));
    a.events = [];
    expect(a.events).toEqual([]);
  });
});
