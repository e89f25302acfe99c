// Generated bars for runs without data.
// - randomWalkBars: a seeded geometric random walk (what `resin run --bars N` and `resin optimize
//   --bars N` use, and scripts/gen-examples.mjs for the example data sets). Prices wander with swings
//   both ways, so a crossover strategy trades on it; the same seed gives the same bars everywhere.
// - syntheticBars: the fixed zig-zag of service.md 5 (start 100; close = open + 1, every third bar
//   0.5 below its open; high/low = max/min(open, close) +/- 0.8; volume 1000 + i; time 1700000000000
//   + i * 60000). It only ever rises, so it has no swing highs and strategies rarely trade on it; it
//   stays for tests and callers that want bars whose every value is known by hand.
import type { Bar } from "../core/result.js";

export interface RandomWalkOptions {
  /** Seed of the generator (any 32-bit integer); default 1. */
  seed?: number;
  /** The first bar's open; default 100. */
  start?: number;
  /** The first bar's time, ms since epoch; default 1700000000000. */
  startTime?: number;
  /** Time between bars, ms; default 60000 (one-minute bars). */
  stepMs?: number;
  /** Standard deviation of one bar's log return; default 0.01. */
  volatility?: number;
  /** Mean of one bar's log return; default 0. */
  drift?: number;
  /** Prices are rounded to this many decimals (the symbol's tick); default 2. */
  decimals?: number;
  /** Typical volume of a bar; default 1000. */
  volume?: number;
}

/**
 * A 32-bit PRNG (the "mulberry32" mixing function: one state word, full period, good enough for test
 * data and tiny, which is why it is written here rather than taken from a package).
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n bars of a seeded geometric random walk; each bar opens at the previous close. */
export function randomWalkBars(n: number, options: RandomWalkOptions = {}): Bar[] {
  const {
    seed = 1,
    start = 100,
    startTime = 1_700_000_000_000,
    stepMs = 60_000,
    volatility = 0.01,
    drift = 0,
    decimals = 2,
    volume = 1000,
  } = options;
  const random = seededRandom(seed);
  // standard normal draws by Box-Muller (1 - u keeps log's argument above 0)
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const scale = 10 ** decimals;
  const round = (x: number): number => Math.round(x * scale) / scale;
  const tick = 1 / scale;
  const out: Bar[] = [];
  let open = round(start);
  for (let i = 0; i < n; i++) {
    const close = Math.max(tick, round(open * Math.exp(drift + volatility * normal())));
    // wicks: half a bar's volatility on average beyond the body, never inside it
    const high = round(Math.max(open, close) * (1 + Math.abs(normal()) * volatility * 0.5));
    const low = Math.max(tick, round(Math.min(open, close) * (1 - Math.abs(normal()) * volatility * 0.5)));
    out.push({
      time: startTime + i * stepMs,
      open,
      high: Math.max(high, open, close),
      low: Math.min(low, open, close),
      close,
      volume: Math.round(volume * Math.exp(0.4 * normal())),
    });
    open = close;
  }
  return out;
}

export function syntheticBars(n: number): Bar[] {
  const out: Bar[] = [];
  let open = 100;
  for (let i = 0; i < n; i++) {
    const close = i % 3 === 2 ? open - 0.5 : open + 1;
    out.push({
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.8,
      close,
      volume: 1000 + i,
    });
    open = close;
  }
  return out;
}
