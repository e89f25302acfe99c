// Jobs of one worker thread in turn (run-worker.ts). A thread may hold two jobs (pool.ts
// jobsPerThread: `resin optimize` hands it the next trial while the CLI's own thread is busy with a
// trial of its own). tinypool starts every job it has received at once, so two held jobs would run
// interleaved and be answered together, and the thread would then sit empty until the busy CLI thread
// read both answers and sent more. Here each job starts a turn of the event loop after the one before
// it ended, by which time tinypool has posted that one's answer: the next job runs while the answer
// is read.

/** A queue of jobs: `inTurn(work)` runs `work` once every job queued before it has ended and been answered. */
export function createTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const turn = previous.then(() => new Promise((resolve) => setImmediate(resolve))).then(work);
    previous = turn.catch(() => undefined);
    return turn;
  };
}
