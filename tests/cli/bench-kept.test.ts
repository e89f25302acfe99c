// resin bench's "kept B/bar" probe: what a run's result keeps alive, garbage excluded.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptBytes } from "../../src/cli/bench.js";

const g = globalThis as { gc?: () => void };
let hadGc: (() => void) | undefined;

beforeAll(() => {
  hadGc = g.gc;
  setFlagsFromString("--expose-gc");
  g.gc = runInNewContext("gc") as () => void;
});
afterAll(() => {
  g.gc = hadGc;
});

describe("keptBytes", () => {
  it("counts what each result holds and not the garbage made on the way", async () => {
    const kept = await keptBytes(() => {
      // 8 MB of garbage per call, and 1 MB held by the result
      for (let i = 0; i < 8; i++) new Float64Array(131_072).fill(i);
      return new Float64Array(131_072);
    });
    expect(kept).not.toBeNull();
    expect(kept as number).toBeGreaterThan(0.9 * 1_048_576);
    expect(kept as number).toBeLessThan(1.5 * 1_048_576);
  });

  it("nets out a cache of the last run that each run replaces", async () => {
    let cache: Float64Array | null = null;
    const run = () => {
      cache = new Float64Array(524_288); // 4 MB, replaced by every call
      return new Float64Array(131_072); // 1 MB held by the result
    };
    run(); // (the bench probes after its timed runs: the cache is there already)
    const kept = await keptBytes(run);
    void cache;
    // (counting the cache would read 1 MB + 4 MB / 3 a result; the worker's own heap moves by ~0.1 MB)
    expect(kept as number).toBeLessThan(1.5 * 1_048_576);
    expect(kept as number).toBeGreaterThan(0.75 * 1_048_576);
  });
});
