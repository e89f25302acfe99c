// A small seeded PRNG (mulberry32) so that every sampler is reproducible from `seed`.
// Not for cryptography; uniform enough for search.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer uniform in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
}

export function createRng(seed?: number | null): Rng {
  let state = (seed === undefined || seed === null ? Math.floor(Math.random() * 2 ** 32) : seed) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    normal: () => {
      const u = Math.max(next(), 1e-12);
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
