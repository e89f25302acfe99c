// A benchmark figure's median and range over its rounds, and how the bench's tables print it (the
// optimize rows, bench-optimize.ts, and the workers rows, bench-workers.ts). A module of its own so
// that bench.ts formats the rows without loading the engines that time them.

/** A median with its spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(xs: readonly number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

/** A spread as the tables print it: "median (min-max)" to `d` places, "-" where it is not known (NaN). */
export function formatSpread(s: Spread, d: number): string {
  return Number.isNaN(s.median) ? "-" : `${s.median.toFixed(d)} (${s.min.toFixed(d)}-${s.max.toFixed(d)})`;
}
