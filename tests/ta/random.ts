// Seeded random OHLCV-like data for cross-checks (mulberry32), with optional na gaps and repeats.
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomBars {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** A random walk around 100 with ties (prices on a 0.01 grid). */
export function randomBars(n: number, seed: number): RandomBars {
  const r = rng(seed);
  const b: RandomBars = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    const c = Math.round((o + (r() - 0.5) * 2) * 100) / 100;
    b.time[i] = 1_700_000_000_000 + i * 3_600_000;
    b.open[i] = o;
    b.close[i] = c;
    b.high[i] = Math.round((Math.max(o, c) + r()) * 100) / 100;
    b.low[i] = Math.round((Math.min(o, c) - r()) * 100) / 100;
    b.volume[i] = Math.round(r() * 1000) + 1;
    p = c;
  }
  return b;
}

/** x with about `rate` of its values replaced by na. */
export function withNa(x: Float64Array, rate: number, seed: number): Float64Array {
  const r = rng(seed);
  return x.map((v) => (r() < rate ? NaN : v));
}
