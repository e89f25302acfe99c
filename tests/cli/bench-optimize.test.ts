// `resin bench`'s optimize rows: the pooled ratio (every round's study CPU over every round's plain-run
// CPU, not a mean of the rounds' ratios) and the warm-up rounds a host gets (one per thread of a warm pool).

import { describe, expect, it } from "vitest";
import { HOSTS, pooledCost, warmUpRounds } from "../../src/cli/bench-optimize.js";

describe("bench optimize rows", () => {
  it("pools the rounds by CPU: a round with longer plain runs weighs more", () => {
    // round 1: 1.5x of 10 ms plain runs (15 ms a trial), round 2: 1.0x of 30 ms (30 ms a trial)
    expect(pooledCost([1.5, 1.0], [10, 30])).toBeCloseTo(45 / 40, 12);
    expect(pooledCost([1.2], [7])).toBeCloseTo(1.2, 12);
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
});
