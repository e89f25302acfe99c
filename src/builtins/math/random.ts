// math.random(min, max, seed): with a seed, TradingView draws from java.util.Random(seed), one
// nextDouble() per call of the call site (logs/math_test_003: seed 42 gives 0.7275636800328681,
// 0.6832234717598454, ... on successive bars). Reimplemented here from the documented LCG:
//   seed = (seed ^ 0x5DEECE66D) mod 2^48;  next(bits) = (seed = seed * 0x5DEECE66D + 0xB mod 2^48) >>> (48 - bits)
//   nextDouble = (next(26) * 2^27 + next(27)) * 2^-53
// The 48-bit state is kept as two 24-bit limbs in doubles: every partial product of the step stays
// below 2^53, so it is exact without BigInt (BigInt made the step ~10x slower). The state is a plain
// object of numbers so that the backend can snapshot it with the site.

const MULT = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;
const LIMB = 16777216; // 2^24
const M_LO = 0xece66d; // low 24 bits of 0x5DEECE66D
const M_HI = 0x5de; // its high bits

export interface RandomState {
  /** High 24 bits of the 48-bit seed. */
  hi: number;
  /** Low 24 bits. */
  lo: number;
}

export function seedRandom(seed: number): RandomState {
  // once per call site: BigInt keeps Java's long conversion exact (and its errors) for any seed
  const s = (BigInt.asIntN(64, BigInt(Math.trunc(seed))) ^ MULT) & MASK;
  return { hi: Number(s >> 24n), lo: Number(s & 0xffffffn) };
}

/** One LCG step: seed = seed * 0x5DEECE66D + 0xB mod 2^48. */
function step(st: RandomState): void {
  const lo = st.lo;
  const t = lo * M_LO + 0xb; // < 2^48
  const carry = Math.floor(t / LIMB);
  st.lo = t - carry * LIMB;
  st.hi = (st.hi * M_LO + lo * M_HI + carry) % LIMB; // < 2^49 before the reduction
}

export function nextDouble(st: RandomState): number {
  step(st);
  const a = st.hi * 4 + (st.lo >>> 22); // next(26) = seed >>> 22
  step(st);
  const b = st.hi * 8 + (st.lo >>> 21); // next(27) = seed >>> 21
  return (a * 134217728 + b) / 9007199254740992;
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
