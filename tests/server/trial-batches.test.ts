// Trial runs a few to a message (src/server/trial-batches.ts): runs started in one synchronous stretch
// go out together in batches of at most `max`, each gets its own reply; a run the pool ended fails
// alone and the batch's other runs are sent again one by one; any other failure is every run's.

import { describe, expect, it } from "vitest";
import { batchedRuns, type BatchRunError } from "../../src/server/trial-batches.js";

/** A stand-in pool: records what was sent, answers each run with its value times ten. */
function pool(fail?: (runs: number[]) => BatchRunError | null) {
  const batches: number[][] = [];
  const ones: number[] = [];
  const send = batchedRuns<number, number>(
    async (runs) => {
      batches.push(runs);
      const err = fail?.(runs);
      if (err) throw err;
      return runs.map((r) => r * 10);
    },
    async (run) => {
      ones.push(run);
      if (run < 0) throw new Error(`one ${run}`);
      return run * 10;
    },
    3,
  );
  return { send, batches, ones };
}

describe("batchedRuns", () => {
  it("sends the runs of one stretch together, at most `max` a message, each answered with its own reply", async () => {
    const p = pool();
    const all = Promise.all([1, 2, 3, 4, 5, 6, 7].map((r) => p.send(r)));
    expect(await all).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(p.batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    // a lone run (here the last one of the stretch) goes as one
    expect(p.ones).toEqual([7]);
    // a later stretch is a message of its own
    expect(await Promise.all([p.send(8), p.send(9)])).toEqual([80, 90]);
    expect(p.batches.at(-1)).toEqual([8, 9]);
  });

  it("a run the pool ended fails alone; the batch's other runs are sent again one by one", async () => {
    const p = pool((runs) => (runs.includes(2) ? Object.assign(new Error("deadline"), { run: 1 }) : null));
    const out = await Promise.allSettled([1, 2, 3].map((r) => p.send(r)));
    expect(out.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
      10,
      "deadline",
      30,
    ]);
    expect(p.ones.sort()).toEqual([1, 3]);
  });

  it("a failure that names no run (a cancel, a bug) is every run's", async () => {
    const p = pool(() => new Error("cancelled"));
    const out = await Promise.allSettled([1, 2, 3].map((r) => p.send(r)));
    expect(out.map((o) => o.status === "rejected" && (o.reason as Error).message)).toEqual([
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
    expect(p.ones).toEqual([]);
  });

  it("a run sent again that fails then rejects with its own error", async () => {
    const p = pool((runs) => (runs.length > 1 ? Object.assign(new Error("heap"), { run: 0 }) : null));
    const out = await Promise.allSettled([5, -1].map((r) => p.send(r)));
    expect(out.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
      "heap",
      "one -1",
    ]);
  });
});
