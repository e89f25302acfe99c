// math.random(min, max, seed): with a seed, TradingView draws from java.util.Random(seed), one
// nextDouble() per call of the call site (logs/math_test_003: seed 42 gives 0.7275636800328681,
// 0.6832234717598454, ... on successive bars). Reimplemented here from the documented LCG:
//   seed = (seed ^ 0x5DEECE66D) mod 2^48;  next(bits) = (seed = seed * 0x5DEECE66D + 0xB mod 2^48) >>> (48 - bits)
//   nextDouble = (next(26) * 2^27 + next(27)) * 2^-53
// The state is a plain object (one bigint) so that the backend can snapshot it with the site.

const MULT = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;

export interface RandomState {
  seed: bigint;
}

export function seedRandom(seed: number): RandomState {
  return { seed: (BigInt.asIntN(64, BigInt(Math.trunc(seed))) ^ MULT) & MASK };
}

function next(st: RandomState, bits: number): number {
  st.seed = (st.seed * MULT + 0xbn) & MASK;
  return Number(st.seed >> BigInt(48 - bits));
}

export function nextDouble(st: RandomState): number {
  return (next(st, 26) * 134217728 + next(st, 27)) / 9007199254740992;
}

/** Object form, for callers that want a generator. */
export class JavaRandom {
  private readonly st: RandomState;
  constructor(seed: number) {
    this.st = seedRandom(seed);
  }
  nextDouble(): number {
    return nextDouble(this.st);
  }
}
