// Checks for generated scripts, all by running them (both modes, through tests/helpers/run-both.ts):
// exits fire at the stated distance on constructed bars, the session and date filters block entries
// outside them, trades go the requested directions.
import { expect } from "vitest";
import type { Bar, RunResult, Trade } from "../../src/core/result.js";
import { runBoth } from "../helpers/run-both.js";

export const MINTICK = 0.01;

/** Hour and minute of a UTC ms time in an IANA zone, as HHMM. */
export function clockIn(timeMs: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(timeMs));
  const h = Number(parts.find((p) => p.type === "hour")!.value);
  const m = Number(parts.find((p) => p.type === "minute")!.value);
  return h * 100 + m;
}

/** Is a bar opening at `timeMs` (lasting `stepMs`) inside "HHMM-HHMM" in the zone? TradingView counts a bar by its open time. */
export function inSession(timeMs: number, hours: string, timezone: string): boolean {
  const [a, b] = hours.split("-").map(Number) as [number, number];
  const t = clockIn(timeMs, timezone);
  return a <= b ? t >= a && t < b : t >= a || t < b;
}

export function allTrades(r: RunResult): Trade[] {
  return [...(r.strategy?.trades ?? []), ...(r.strategy?.open_trades ?? [])];
}

export type ExitKind = "stop" | "target" | "trail";

/**
 * The distance check: takes trades of the sample run, cuts the bars after each one's fill bar and
 * appends one bar that moves far through the expected exit level; the trade must close on that bar
 * at the level (within two ticks). `level(trade, bars)` gives the expected exit price (for a trailing
 * stop: from the new bar's open, the larger of the last close and the entry price). Returns how many
 * trades were checked (the caller requires at least one).
 */
export async function checkExitDistance(
  script: string,
  sample: Bar[],
  sampleRun: RunResult,
  kind: ExitKind,
  level: (t: Trade, bars: Bar[]) => number,
): Promise<number> {
  let checked = 0;
  for (const t of allTrades(sampleRun).slice(0, 8)) {
    const f = t.entry_bar_index;
    if (f + 1 >= sample.length || f < 2) continue;
    const bars = sample.slice(0, f + 1);
    const c = bars[f]!.close;
    const expected = level(t, bars);
    const long = t.direction === "long";
    // the exit level must lie ahead of the fill bar's close in the direction the new bar moves
    const adverse = kind === "stop" || kind === "trail";
    const movesDown = long === adverse;
    if (movesDown ? !(expected < c) : !(expected > c)) continue;
    const far = movesDown ? expected - 0.03 * c : expected + 0.03 * c;
    const open = kind === "trail" ? (long ? Math.max(c, t.entry_price) : Math.min(c, t.entry_price)) : c;
    const next: Bar = {
      time: bars[f]!.time + (bars[f]!.time - bars[f - 1]!.time),
      open,
      high: movesDown ? open : far,
      low: movesDown ? far : open,
      close: far,
      volume: 1000,
    };
    const r = await runBoth(script, [...bars, next]);
    const same = allTrades(r).find((x) => x.entry_bar_index === f && x.direction === t.direction);
    expect(same, `trade filled at bar ${f}`).toBeDefined();
    // a reversal or signal exit on the new bar would close at its open: then this trade says nothing
    if (same!.exit_bar_index !== f + 1 || same!.exit_price === open) continue;
    expect(Math.abs(same!.exit_price! - expected), `${kind} exit of the trade filled at bar ${f}`).toBeLessThanOrEqual(
      2 * MINTICK + 1e-9,
    );
    checked++;
    if (checked >= 2) break;
  }
  return checked;
}

/** ta.atr(length) on bars, through the runtime (so the test does not re-implement it). */
export async function atrSeries(bars: Bar[], length: number): Promise<(number | null)[]> {
  const r = await runBoth(`//@version=6\nindicator("atr")\nplot(ta.atr(${length}), "atr")\n`, bars);
  return r.series.atr as (number | null)[];
}
