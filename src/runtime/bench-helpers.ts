// Helpers for `resin bench`: the reference bar generator (the one of bench/fused-loop.mjs, so the
// numbers are comparable with that floor) and a timed interpret run.
import type { ColumnarBars } from "../core/result.js";
import { Runtime } from "./index.js";

/** Deterministic random-walk bars (LCG seeded like bench/fused-loop.mjs). */
export function benchBars(n: number, seed = 42): ColumnarBars & { volume: Float64Array } {
  let s = seed >>> 0;
  const r = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const time = new Float64Array(n),
    open = new Float64Array(n),
    high = new Float64Array(n),
    low = new Float64Array(n),
    close = new Float64Array(n),
    volume = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    const op = p;
    p = Math.max(1, p * (1 + (r() - 0.5) * 0.02));
    time[i] = 1_700_000_000_000 + i * 60_000;
    open[i] = op;
    close[i] = p;
    high[i] = Math.max(op, p) * (1 + r() * 0.005);
    low[i] = Math.min(op, p) * (1 - r() * 0.005);
    volume[i] = 1000 + r() * 1000;
  }
  return { time, open, high, low, close, volume };
}

/** The interpret-throughput script of the performance goal: 10 arithmetic/history expressions, 3 plots. */
export const ARITH10 = `//@version=6
indicator("arith10")
a = close - open
b = (high + low) / 2
c = close[1] * 2
d = a * b - c
e = d[2] + a[1]
f = b > c ? a : d
g = e / 2 + f
h = g[5] - close[3]
k = nz(h) + 1
m = k * 0.5 + a
plot(m, "m")
plot(e, "e")
plot(h, "h")
`;

export interface BenchRun {
  bars: number;
  /** median wall time of the whole run (parse to result) */
  total_ms: number;
  /** median time of the bar loop alone */
  eval_ms: number;
  bars_per_sec: number;
  error?: string;
}

/** Runs `source` over `n` bench bars `reps` times (after one warm-up) and reports medians. */
export async function benchInterpret(source: string, n: number, reps = 5): Promise<BenchRun> {
  const data = benchBars(n);
  const rt = new Runtime();
  const first = await rt.run(source, data, { mode: "interpret" });
  if (first.error) return { bars: n, total_ms: NaN, eval_ms: NaN, bars_per_sec: NaN, error: first.error };
  const totals: number[] = [];
  const evals: number[] = [];
  for (let i = 0; i < reps; i++) {
    const r = await rt.run(source, data, { mode: "interpret" });
    totals.push(r.profile.total_ms);
    evals.push(r.profile.phases.eval_ms);
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const evalMs = med(evals);
  return { bars: n, total_ms: med(totals), eval_ms: evalMs, bars_per_sec: (n / evalMs) * 1000 };
}
