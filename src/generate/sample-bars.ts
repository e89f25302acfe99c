// The bars a generated script is verified on: a seeded random walk of 15-minute bars around the
// clock (so a session filter has bars in and out of its hours, and rules that need swings get
// them), placed inside the requested date range so a date filter does not reject every bar. A script
// whose windows are in days or weeks ("20 day high") is verified on daily bars instead: 4000 quarter
// hours are only 41 days, too few for a 20-day window to be broken reliably; with a session filter
// that needs hours of the day it is verified on hourly bars (4000 hours: 166 days).

import type { Bar } from "../core/result.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import type { DateRange } from "./intent.js";

export const SAMPLE_BAR_COUNT = 4000;
const STEP_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The sample's bar interval: quarter hours, or days / hours for scripts with calendar windows. */
export type SampleTimeframe = "15" | "60" | "D";
/** 2024-01-01T00:00Z: the sample's start when the request names no dates. */
const DEFAULT_START = Date.UTC(2024, 0, 1);

/** Where the sample starts: at a range's start, else early enough to end before its end. */
function startOf(range: DateRange | null): number {
  if (range?.from) return Date.parse(`${range.from}T00:00:00Z`);
  if (range?.to) return Date.parse(`${range.to}T00:00:00Z`) - (SAMPLE_BAR_COUNT + 96) * STEP_MS;
  return DEFAULT_START;
}

/** The random walk a script is verified on first. */
export const DEFAULT_SAMPLE_SEED = 7;
/**
 * Other walks tried when a strategy has no trade on the first: rare entries ("rsi crosses above 30 and
 * close > ema 50") may not happen on one walk of 4,000 bars; a script that cannot trade trades on none.
 */
export const OTHER_SAMPLE_SEEDS = [1, 2, 3, 4, 5, 6];

export function sampleBars(
  range: DateRange | null = null,
  seed = DEFAULT_SAMPLE_SEED,
  timeframe: SampleTimeframe = "15",
): Bar[] {
  const daily = timeframe === "D";
  const start =
    daily && !range?.from && range?.to
      ? Date.parse(`${range.to}T00:00:00Z`) - (SAMPLE_BAR_COUNT + 14) * DAY_MS
      : startOf(range);
  return randomWalkBars(SAMPLE_BAR_COUNT, {
    seed,
    startTime: Number.isFinite(start) ? start : DEFAULT_START,
    stepMs: daily ? DAY_MS : timeframe === "60" ? HOUR_MS : STEP_MS,
    volatility: daily ? 0.02 : timeframe === "60" ? 0.008 : 0.004,
  });
}
