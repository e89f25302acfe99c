// Deterministic 1h random-walk bars with volume for the real-world corpus. A seeded LCG keeps
// every run identical, so a failure here is always reproducible from the script name alone.
import type { Bar } from "../../src/core/result.js";

const HOUR_MS = 3_600_000;

/** Park–Miller style generator; returns floats in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

/** `n` hourly bars starting 2024-01-01T00:00Z, price random walk around 100 with drift regimes. */
export function randomWalkBars(n = 1500, seed = 42): Bar[] {
  const rnd = lcg(seed);
  const start = Date.UTC(2024, 0, 1);
  const out: Bar[] = [];
  let close = 100;
  for (let i = 0; i < n; i++) {
    const open = close;
    // slow regime drift so trend-following scripts see both trends and ranges
    const drift = Math.sin(i / 120) * 0.0008;
    const ret = drift + (rnd() - 0.5) * 0.02;
    close = Math.max(1, open * (1 + ret));
    const wickUp = rnd() * 0.006 * open;
    const wickDn = rnd() * 0.006 * open;
    const high = Math.max(open, close) + wickUp;
    const low = Math.min(open, close) - wickDn;
    const volume = Math.round(1000 + rnd() * 9000 + Math.abs(ret) * 200000);
    out.push({
      time: start + i * HOUR_MS,
      open: round(open),
      high: round(high),
      low: round(low),
      close: round(close),
      volume,
    });
  }
  return out;
}

/** Prices on a 0.01 tick, like a real feed. */
function round(x: number): number {
  return Math.round(x * 100) / 100;
}
