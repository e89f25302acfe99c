// Realtime bars (service.md 1.4): barstate.islast is true on every realtime bar (the reference: "true
// for all real-time bars in barset"), and every tick, the opening one included, carries a share of the
// bar's volume. Hand-computed on 6 bars of volume 100 with the last 3 realtime, 4 ticks each.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";

const bars = Array.from({ length: 6 }, (_, i) => ({
  time: 1_700_000_000_000 + i * 3_600_000,
  open: 10,
  high: 11,
  low: 9,
  close: 10.5,
  volume: 100,
}));

describe("realtime bars", () => {
  it("islast holds on every realtime bar; the first tick already has volume", async () => {
    const src = `//@version=6
indicator("rt")
varip float firstTickVolume = na
if barstate.isrealtime and barstate.isnew
    firstTickVolume := volume
plot(barstate.islast ? 1 : 0, "islast")
plot(firstTickVolume, "first")`;
    const r = await new Runtime("CHART", { timeframe: "60" }).run(src, bars, { realtimeBars: 3, realtimeTicks: 4 });
    expect(r.error).toBeUndefined();
    expect(r.series.islast).toEqual([0, 0, 0, 1, 1, 1]);
    // tick 1 of 4 trades a quarter of the bar's volume
    expect(r.series.first!.slice(3)).toEqual([25, 25, 25]);
  });
});
