// The bars a generated script is verified on: a seeded random walk of 15-minute bars around the
// clock (so a session filter has bars in and out of its hours, and rules that need swings get
// them), placed inside the requested date range so a date filter does not reject every bar.

import type { Bar } from "../core/result.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import type { DateRange } from "./intent.js";

export const SAMPLE_BAR_COUNT = 4000;
const STEP_MS = 15 * 60_000;
/** 2024-01-01T00:00Z: the sample's start when the request names no dates. */
const DEFAULT_START = Date.UTC(2024, 0, 1);

/** Where the sample starts: at a range's start, else early enough to end before its end. */
function startOf(range: DateRange | null): number {
  if (range?.from) return Date.parse(`${range.from}T00:00:00Z`);
  if (range?.to) return Date.parse(`${range.to}T00:00:00Z`) - (SAMPLE_BAR_COUNT + 96) * STEP_MS;
  return DEFAULT_START;
}

export function sampleBars(range: DateRange | null = null, seed = 7): Bar[] {
  const start = startOf(range);
  return randomWalkBars(SAMPLE_BAR_COUNT, {
    seed,
    startTime: Number.isFinite(start) ? start : DEFAULT_START,
    stepMs: STEP_MS,
    volatility: 0.004,
  });
}
