// `resin bench`'s optimize rows: the pooled ratio (every round's study CPU over every round's plain-run
// CPU, not a mean of the rounds' ratios), the split into a study's fixed cost and a further trial's,
// the warm-up rounds a host gets (one per thread of a warm
// pool), and the built bench's rounds with the plain runs in a process of their own.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { HOSTS, pooledCost, splitCost, warmUpRounds } from "../../src/cli/bench-optimize.js";
import { ensureDist, ROOT } from "../server/dist.js";

describe("bench optimize rows", () => {
  it("pools the rounds by CPU: a round with longer plain runs weighs more", () => {
    // round 1: 1.5x of 10 ms plain runs (15 ms a trial), round 2: 1.0x of 30 ms (30 ms a trial)
    expect(pooledCost([1.5, 1.0], [10, 30])).toBeCloseTo(45 / 40, 12);
    expect(pooledCost([1.2], [7])).toBeCloseTo(1.2, 12);
  });

  it("splits a host's cost into a study's fixed part and a further trial's, per round and pooled", () => {
    // 40 ms a study + 1.2x a plain run of 5 ms a trial, two rounds of 32 and 128 trials
    const pair = (plain: number, fixed: number, x: number) => ({
      short: { trials: 32, cpu: fixed + 32 * x * plain, plain },
      long: { trials: 128, cpu: fixed + 128 * x * plain, plain },
    });
    const split = splitCost([pair(5, 40, 1.2), pair(5, 20, 1.2)]);
    expect(split.fixedMs.pooled).toBeCloseTo(30, 9);
    expect(split.fixedMs.min).toBeCloseTo(20, 9);
    expect(split.fixedMs.max).toBeCloseTo(40, 9);
    expect(split.marginal.pooled).toBeCloseTo(1.2, 12);
    expect(split.marginal.median).toBeCloseTo(1.2, 12);
    // the plain run of the two studies weighs by their trials
    const uneven = splitCost([
      { short: { trials: 10, cpu: 10 * 4, plain: 4 }, long: { trials: 40, cpu: 40 * 4, plain: 4 + 1 / 40 } },
    ]);
    expect(uneven.marginal.pooled).toBeCloseTo(4 / ((10 * 4 + 40 * (4 + 1 / 40)) / 50), 12);
    // no slope between two studies of one size
    expect(splitCost([pair(5, 1, 1)].map((p) => ({ ...p, long: p.short }))).marginal.pooled).toBeNaN();
  });

  it("warms a pool of two threads with two rounds, every other host with one", () => {
    const two = HOSTS.filter((h) => warmUpRounds(h) === 2);
    expect(two).toEqual([
      "threads x2 warm",
      "HTTP /optimize x2",
      "HTTP /optimize x2 columns",
      "HTTP /optimize x2 base64",
    ]);
    expect(HOSTS.filter((h) => warmUpRounds(h) !== 2).every((h) => warmUpRounds(h) === 1)).toBe(true);
  });

  it("built: a host's rounds from the built module (a study of n and one of 4n trials a round, each with its plain runs' CPU)", async () => {
    ensureDist();
    const built = (await import(
      pathToFileURL(join(ROOT, "dist", "cli", "bench-optimize.js")).href
    )) as typeof import("../../src/cli/bench-optimize.js");
    const { generateBars } = (await import(
      pathToFileURL(join(ROOT, "dist", "cli", "bench.js")).href
    )) as typeof import("../../src/cli/bench.js");
    const bench = join(ROOT, "bench");
    const source = readFileSync(join(bench, "ema_atr_stop.pine"), "utf8");
    const r = await built.runHost("in-process", source, generateBars(5000), 4, 2, bench);
    expect(r.trials).toBe(4);
    expect(r.plain).toHaveLength(2);
    expect(r.cost).toHaveLength(2);
    for (const x of [...r.plain, ...r.cost]) expect(x).toBeGreaterThan(0);
    // each round also a study of 4x the trials, both with their plain runs
    expect(r.pairs.map((p) => [p.short.trials, p.long.trials])).toEqual([
      [4, 16],
      [4, 16],
    ]);
    for (const p of r.pairs) for (const x of [p.short.cpu, p.long.cpu, p.long.plain]) expect(x).toBeGreaterThan(0);
  }, 60_000);
});
