// Which run of a batch a worker thread is on, and since when: a few trials go to a thread in one
// message (trial-batches.ts), and the pool must still end a run that outlives its hard deadline as if
// it had come alone, not the batch as a whole (pool.ts). The thread writes each run's index and start
// into a small shared buffer before the run; the pool's deadline timer reads it. Times are epoch ms
// (performance.timeOrigin + now): comparable across threads. Without SharedArrayBuffer (no threads)
// the clock is an ordinary buffer nobody else reads.

/** [0]: the run started last (-1 before the first), as Int32; [1]: its start, epoch ms, as Float64. */
export interface RunClock {
  index: Int32Array;
  start: Float64Array;
}

/** Now, epoch ms with a fraction (the same clock on every thread). */
export const epochMs = (): number => performance.timeOrigin + performance.now();

export function newRunClock(): RunClock {
  const buffer = typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(16) : new ArrayBuffer(16);
  const index = new Int32Array(buffer, 0, 1);
  index[0] = -1;
  return { index, start: new Float64Array(buffer, 8, 1) };
}

/** Marks run `i` as started now (the thread, before the run; the start first, so a reader never sees the new index with the old start). */
export function markRun(clock: RunClock, i: number): void {
  clock.start[0] = epochMs();
  Atomics.store(clock.index, 0, i);
}

/** The run the thread is on (-1: none started yet). */
export function runOn(clock: RunClock): number {
  return Atomics.load(clock.index, 0);
}

/**
 * When the run the thread is on started, epoch ms; null for the batch's first run (its deadline counts
 * from the job's dispatch, as a job of one run's does).
 */
export function runStarted(clock: RunClock): number | null {
  return runOn(clock) > 0 ? clock.start[0]! : null;
}
