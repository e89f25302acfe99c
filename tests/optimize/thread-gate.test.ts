// Where `resin optimize` runs each run (src/cli/optimize-threads.ts): here, with no thread, until the
// work still ahead pays for the threads' start-up (--workers only caps how many): by the wall clock
// with a core to spare, by CPU time without; a thread takes runs only once it is up, two at a time,
// and this thread takes the next run first when it is free.
import { describe, expect, it } from "vitest";
import {
  BUSY_GROW_AFTER_MS,
  GROW_AFTER_MS,
  RUNS_PER_THREAD,
  ThreadGate,
  type GateOptions,
  type Place,
} from "../../src/cli/optimize-threads.js";

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
    // let in after the first 24 runs here (any work ahead is worth it)
    let started = 0;
    const gate = new ThreadGate(2, 40, {
      growAfterMs: 0,
      startThreads: () => {
        started++;
        return Promise.reject(new Error("no worker"));
      },
    });
    expect((await through(gate, 40, 4, 1)).count).toEqual({ here: 40, thread: 0 });
    expect(started).toBe(1);
  });

  it("reads the runs' times only after the first 24 here (the first ones are V8's warm-up)", async () => {
    let started = 0;
    const gate = new ThreadGate(1, 100, { growAfterMs: 0, startThreads: () => new Promise(() => void started++) });
    for (let i = 0; i < 23; i++) await gate.run(async () => {});
    expect(started).toBe(0);
    await gate.run(async () => {});
    expect(started).toBe(1);
  });

  /**
   * Whether a study of `total` runs here, each `cpuMs` of CPU and `wallMs` of wall time by the gate's
   * clocks (V8's compiler threads make a warming run's CPU time the larger), started its threads by
   * the end of its 24th run, on a machine with or without a core to spare.
   */
  async function startsAt24(total: number, cpuMs: number, wallMs: number, spare: boolean): Promise<boolean> {
    let cpu = 0;
    let wall = 0;
    let started = false;
    const options: GateOptions = {
      clock: () => cpu,
      wallClock: () => wall,
      spareCore: () => spare,
      startThreads: () => new Promise(() => void (started = true)),
    };
    const gate = new ThreadGate(1, total, options);
    for (let i = 0; i < 24; i++)
      await gate.run(async () => {
        cpu += cpuMs;
        wall += wallMs;
      });
    return started;
  }

  it("with a core to spare, lets threads in at GROW_AFTER_MS of runs ahead by the wall clock", async () => {
    // 10 ms a run by the wall clock, 30 by CPU: the runs left after 24 are worth the threshold or not
    const left = Math.ceil(GROW_AFTER_MS / 10);
    expect(await startsAt24(24 + left, 30, 10, true)).toBe(true);
    // by CPU (30 x runs left) the shorter study would pass the threshold; by the wall clock it does not
    expect(left * 30 - 300).toBeGreaterThan(GROW_AFTER_MS);
    expect(await startsAt24(24 + left - 10, 30, 10, true)).toBe(false);
  });

  it("without a core to spare, lets threads in only at BUSY_GROW_AFTER_MS of runs ahead by CPU time", async () => {
    const wallLeft = Math.ceil(GROW_AFTER_MS / 10);
    expect(wallLeft * 30).toBeLessThan(BUSY_GROW_AFTER_MS);
    expect(await startsAt24(24 + wallLeft, 30, 10, false)).toBe(false);
    expect(await startsAt24(24 + Math.ceil(BUSY_GROW_AFTER_MS / 30), 30, 10, false)).toBe(true);
  });

  it("asks whether a core is spare at most every 250 ms (os.cpus() is a system call)", async () => {
    // 10 ms of wall time a run and work ahead past GROW_AFTER_MS throughout; no core to spare
    let wall = 0;
    let asked = 0;
    const gate = new ThreadGate(1, 24 + 60 + Math.ceil(GROW_AFTER_MS / 10), {
      clock: () => 0,
      wallClock: () => wall,
      spareCore: () => {
        asked++;
        return false;
      },
      startThreads: async () => {},
    });
    for (let i = 0; i < 24 + 60; i++)
      await gate.run(async () => {
        wall += 10;
      });
    // asked at the 24th run (240 ms), the 49th and the 74th: 61 runs that read the work ahead
    expect(asked).toBe(3);
    expect(gate.threadsOpen).toBe(0);
  });

  it("reads a run's time as the least mean of its last pairs (train and test runs alternate)", async () => {
    // runs alternating 4 and 16 ms, one of them 100 (a collection): a run is (4 + 16) / 2 = 10 ms
    let wall = 0;
    let started = false;
    const at = (i: number) => (i === 21 ? 100 : i % 2 ? 16 : 4);
    const study = (total: number) => {
      started = false;
      return new ThreadGate(1, total, {
        clock: () => 0,
        wallClock: () => wall,
        spareCore: () => true,
        startThreads: () => new Promise(() => void (started = true)),
      });
    };
    for (const [left, expected] of [
      [Math.ceil(GROW_AFTER_MS / 10), true],
      [Math.floor(GROW_AFTER_MS / 10) - 1, false],
    ] as const) {
      const gate = study(24 + left);
      for (let i = 0; i < 24; i++)
        await gate.run(async () => {
          wall += at(i);
        });
      expect(started).toBe(expected);
    }
  });

  it("this thread takes the next run when it is free: two runs at a time go here and to a thread", async () => {
    // (threads first handed both to the thread while this one sat idle: a TPE study's in-sample and
    // out-of-sample runs)
    const gate = new ThreadGate(1, 200, { growAfterMs: 0, startThreads: async () => {} });
    const seen = await through(gate, 200, 2, 1);
    expect(seen.here).toBe(1);
    expect(seen.thread).toBeGreaterThan(0);
    // past the first 24, this thread keeps about half of them
    expect(seen.count.here).toBeGreaterThan(24 + (200 - 24) / 4);
  });

  it("a failing run frees its place", async () => {
    const gate = new ThreadGate(0, 3);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async (place) => place)).toBe("here");
  });
});
