// math.random(min, max, seed): with a seed, TradingView draws from java.util.Random(seed), one
// nextDouble() per call of the call site (logs/math_test_003: seed 42 gives 0.7275636800328681,
// 0.6832234717598454, ... on successive bars). Reimplemented here from the documented LCG:
//   seed = (seed ^ 0x5DEECE66D) mod 2^48;  next(bits) = (seed = seed * 0x5DEECE66D + 0xB mod 2^48) >>> (48 - bits)
//   nextDouble = (next(26) * 2^27 + next(27)) * 2^-53

const MULT = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;

export class JavaRandom {
  private seed: bigint;
  constructor(seed: number) {
    this.seed = (BigInt.asIntN(64, BigInt(Math.trunc(seed))) ^ MULT) & MASK;
  }
  private next(bits: number): number {
    this.seed = (this.seed * MULT + 0xbn) & MASK;
    return Number(this.seed >> BigInt(48 - bits));
  }
  nextDouble(): number {
    return (this.next(26) * 134217728 + this.next(27)) / 9007199254740992;
  }
}
