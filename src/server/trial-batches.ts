// A study's trial runs handed to a worker thread a few at a time (engine.ts studyTrialRunner): each
// message to a thread wakes it and then the caller's thread for the answer, about 0.2-0.3 ms of CPU a
// message on both sides beside a 5 ms run (docs/benchmarks.md, issue 18, session 13). The driver
// hands out a batch of trials at once (runStudy's batchSize); their runs reach the runner in one
// synchronous stretch, are gathered here until the next microtask and go out as one message of at
// most `max` runs. Each run still gets exactly its own outcome:
// - a batch's replies come back in its order, one per run;
// - a run that the pool had to end (its hard deadline passed, its thread ran out of heap: the error
//   names the run, pool.ts) gets that error, and the batch's other runs, whose replies died with the
//   thread, run again on their own (a run gives the same reply every time);
// - any other failure (a cancel, a bug) is every run's.

export interface BatchRunError extends Error {
  /** The batch's run the thread was on when the pool ended it. */
  run?: number;
}

interface Pending<R, T> {
  run: R;
  resolve: (reply: T) => void;
  reject: (err: unknown) => void;
}

/**
 * A function of one run that sends the runs it is given in one synchronous stretch as batches of at
 * most `max` (`sendBatch`), and a lone run, or one sent again after a batch failure, through `sendOne`.
 */
export function batchedRuns<R, T>(
  sendBatch: (runs: R[]) => Promise<T[]>,
  sendOne: (run: R) => Promise<T>,
  max: number,
): (run: R) => Promise<T> {
  let queue: Pending<R, T>[] = [];
  const one = (p: Pending<R, T>): void => void sendOne(p.run).then(p.resolve, p.reject);
  const send = async (chunk: Pending<R, T>[]): Promise<void> => {
    if (chunk.length === 1) return one(chunk[0]!);
    try {
      const replies = await sendBatch(chunk.map((p) => p.run));
      for (let i = 0; i < chunk.length; i++) chunk[i]!.resolve(replies[i]!);
    } catch (err) {
      const at = (err as BatchRunError | null)?.run;
      if (at === undefined || !chunk[at]) {
        for (const p of chunk) p.reject(err);
        return;
      }
      for (let i = 0; i < chunk.length; i++) {
        if (i === at) chunk[i]!.reject(err);
        else one(chunk[i]!);
      }
    }
  };
  const flush = (): void => {
    const q = queue;
    queue = [];
    for (let i = 0; i < q.length; i += max) void send(q.slice(i, i + max));
  };
  return (run) =>
    new Promise<T>((resolve, reject) => {
      if (queue.length === 0) queueMicrotask(flush);
      queue.push({ run, resolve, reject });
    });
}
