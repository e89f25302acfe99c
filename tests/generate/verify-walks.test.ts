// A strategy whose entries are rare may not trade on the first random walk of sample bars: the
// verifier tries the next walks before saying it never trades, and names the walk it verified on. A
// script that cannot trade (an entry that never holds) still fails on every walk.
import { describe, expect, it } from "vitest";
import { emptyIntent, expectationsOf } from "../../src/generate/intent.js";
import { understand } from "../../src/generate/understand.js";
import { emit } from "../../src/generate/emit.js";
import { verify } from "../../src/generate/verify.js";
import { DEFAULT_SAMPLE_SEED, OTHER_SAMPLE_SEEDS } from "../../src/generate/sample-bars.js";

const strategy = (cond: string): string => `//@version=6
strategy("Never", overlay = true)
if ${cond}
    strategy.entry("Long", strategy.long)
`;

describe("verifier: sample walks", () => {
  it("a strategy that cannot trade fails the trades check on every walk", async () => {
    const v = await verify(strategy("close < 0"), { ...expectationsOf(emptyIntent()), strategy: true });
    const trades = v.checks.find((c) => c.name === "trades")!;
    expect(trades.ok).toBe(false);
    expect(trades.detail).toBe(`no trades on the sample bars (${1 + OTHER_SAMPLE_SEEDS.length} random walks)`);
  });

  it("rare entries are verified on the next walk that trades, which the answer names", async () => {
    const intent = understand("long when price is above the 20-day moving average and rsi is under 40");
    const v = await verify(emit(intent), expectationsOf(intent));
    expect(v.ok).toBe(true);
    expect(v.run!.sample_seed).not.toBe(DEFAULT_SAMPLE_SEED);
    expect(v.checks.find((c) => c.name === "trades")!.detail).toMatch(/\(walk \d+: none on the first\)$/);
  });

  it("a strategy that trades on the first walk is verified on it", async () => {
    const intent = understand("ema 9/21 cross");
    const v = await verify(emit(intent), expectationsOf(intent));
    expect(v.run!.sample_seed).toBe(DEFAULT_SAMPLE_SEED);
  });
});
