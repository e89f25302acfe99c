// How many threads `resin optimize` keeps busy (src/cli/optimize-threads.ts): one, until the work
// still ahead pays for another thread's start-up; all of them when --workers fixes the number.
import { describe, expect, it } from "vitest";
import { ThreadGate } from "../../src/cli/optimize-threads.js";

/** Runs `total` jobs of `ms` each through the gate, `offered` at a time; the most that ran at once. */
async function widest(gate: ThreadGate, total: number, offered: number, ms: number): Promise<number> {
  let running = 0;
  let most = 0;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < total) {
      next++;
      await gate.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, ms));
        running--;
      });
    }
  };
  await Promise.all(Array.from({ length: offered }, lane));
  return most;
}

describe("ThreadGate", () => {
  it("--workers: every thread from the start", async () => {
    const gate = new ThreadGate(3, 12, true);
    expect(gate.width).toBe(3);
    expect(await widest(gate, 12, 4, 2)).toBe(3);
  });

  it("a short study stays on one thread", async () => {
    const gate = new ThreadGate(2, 30, false, 60_000);
    expect(await widest(gate, 30, 2, 1)).toBe(1);
    expect(gate.width).toBe(1);
  });

  it("a long study lets the other threads in once its first runs are done", async () => {
    // 40 runs of at least 5 ms: after 10, the 30 left are worth 150 ms or more, past the 50 ms asked
    const gate = new ThreadGate(2, 40, false, 50);
    expect(await widest(gate, 40, 2, 5)).toBe(2);
    expect(gate.width).toBe(2);
  });

  it("a failing run frees its thread", async () => {
    const gate = new ThreadGate(1, 3, true);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => 7)).toBe(7);
  });
});
