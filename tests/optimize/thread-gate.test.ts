// Where `resin optimize` runs each run (src/cli/optimize-threads.ts): here, with no thread, until the
// work still ahead pays for the threads' start-up (--workers only caps how many); a thread takes runs
// only once it is up, two at a time.
import { describe, expect, it } from "vitest";
import { RUNS_PER_THREAD, ThreadGate, type Place } from "../../src/cli/optimize-threads.js";

interface Seen {
  /** The most runs at once here and on threads. */
  here: number;
  thread: number;
  /** Runs per place. */
  count: Record<Place, number>;
}

/** Runs `total` jobs of `ms` each through the gate, `offered` at a time. */
async function through(gate: ThreadGate, total: number, offered: number, ms: number): Promise<Seen> {
  const running: Record<Place, number> = { here: 0, thread: 0 };
  const seen: Seen = { here: 0, thread: 0, count: { here: 0, thread: 0 } };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < total) {
      next++;
      await gate.run(async (place) => {
        running[place]++;
        seen.count[place]++;
        seen[place] = Math.max(seen[place], running[place]);
        await new Promise((r) => setTimeout(r, ms));
        running[place]--;
      });
    }
  };
  await Promise.all(Array.from({ length: offered }, lane));
  return seen;
}

describe("ThreadGate", () => {
  it("a short study starts no thread", async () => {
    let started = 0;
    const gate = new ThreadGate(2, 30, { growAfterMs: 60_000, startThreads: async () => void started++ });
    const seen = await through(gate, 30, 5, 1);
    expect(seen.count).toEqual({ here: 30, thread: 0 });
    expect(seen.here).toBe(1);
    expect(started).toBe(0);
    expect(gate.threadsOpen).toBe(0);
  });

  it("a long study lets the threads in once its first runs here are done", async () => {
    // 40 runs of at least 5 ms: after 10, the 30 left are worth 150 ms or more, past the 50 ms asked
    let started = 0;
    const gate = new ThreadGate(2, 40, {
      growAfterMs: 50,
      clock: () => performance.now(),
      startThreads: async () => void started++,
    });
    const seen = await through(gate, 40, 6, 5);
    expect(started).toBe(1);
    expect(gate.threadsOpen).toBe(2);
    expect(seen.count.here).toBeGreaterThanOrEqual(10);
    expect(seen.count.thread).toBeGreaterThan(0);
    expect(seen.thread).toBeLessThanOrEqual(2 * RUNS_PER_THREAD);
  });

  it("times runs here in CPU: runs that mostly wait (for a core, here for a timer) let no thread in", async () => {
    // 40 runs of 5 ms of wall time each but next to no CPU: by the wall clock the 30 left after the
    // first 10 would be worth 150 ms, past the 50 ms asked; by this process's CPU they are not
    let started = 0;
    const gate = new ThreadGate(2, 40, { growAfterMs: 50, startThreads: async () => void started++ });
    expect((await through(gate, 40, 6, 5)).count).toEqual({ here: 40, thread: 0 });
    expect(started).toBe(0);
  });

  it("threads that come up while synchronous runs here keep this thread busy still get runs", async () => {
    // the threads' "up" is a macrotask; runs here block this thread and follow each other through
    // promises only, so without a turn of the event loop between them it would be read at the end
    const gate = new ThreadGate(1, 200, {
      growAfterMs: 0,
      startThreads: () => new Promise<void>((r) => setTimeout(r, 5)),
    });
    const count: Record<Place, number> = { here: 0, thread: 0 };
    const runs = Array.from({ length: 200 }, () =>
      gate.run(async (place) => {
        count[place]++;
        if (place === "thread") return new Promise((r) => setTimeout(r, 1));
        const t0 = performance.now();
        while (performance.now() - t0 < 1) {
          // a run here: this thread is busy
        }
      }),
    );
    await Promise.all(runs);
    expect(count.here + count.thread).toBe(200);
    expect(count.thread).toBeGreaterThan(0);
  });

  it("no threads (--workers 1): every run here", async () => {
    let started = 0;
    const gate = new ThreadGate(0, 40, { growAfterMs: 0, startThreads: async () => void started++ });
    expect((await through(gate, 40, 4, 1)).count).toEqual({ here: 40, thread: 0 });
    expect(started).toBe(0);
  });

  it("threads that fail to start leave the study here", async () => {
    // let in after the first 10 runs here (any work ahead is worth it)
    let started = 0;
    const gate = new ThreadGate(2, 20, {
      growAfterMs: 0,
      startThreads: () => {
        started++;
        return Promise.reject(new Error("no worker"));
      },
    });
    expect((await through(gate, 20, 4, 1)).count).toEqual({ here: 20, thread: 0 });
    expect(started).toBe(1);
  });

  it("a failing run frees its place", async () => {
    const gate = new ThreadGate(0, 3);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async (place) => place)).toBe("here");
  });
});
