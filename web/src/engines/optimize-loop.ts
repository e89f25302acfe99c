// The client-side optimize loop (in-browser and edge engines): the shared study of src/optimize with
// its trial runner mapped onto bar slices that the engine runs (a worker pool job, an edge /run).

import {
  optimize,
  OptimizeError,
  type FullRunner,
  type OptimizeProgress as StudyProgress,
  type TrialOutcome,
} from "../../../src/optimize/index.js";
import type { Bar } from "../../../src/core/result.js";
import { EngineError, type OptimizeProgress, type OptimizeRequest, type OptimizeResult } from "./types.js";

/** Runs the strategy with `inputs` over bars [from, to) of the request's data set (a RunResult will do). */
export type SliceRunner = (inputs: Record<string, unknown>, from: number, to: number) => Promise<TrialOutcome>;

/** First index whose time is >= t (bar times increase). */
export function indexOfTime(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The study on the page. `opts.fullRun` runs the winner once more over the whole data set (the
 * answer's best_result, as /optimize and `resin optimize` carry it).
 */
export async function clientSideOptimize(
  req: OptimizeRequest,
  runSlice: SliceRunner,
  opts: {
    concurrency: number;
    signal: AbortSignal;
    fullRun?: (inputs: Record<string, unknown>) => ReturnType<FullRunner>;
  },
  onProgress: (p: OptimizeProgress) => void,
): Promise<OptimizeResult> {
  const times = req.data.bars.time;
  // The study slices its bar array for validation; a slice is found again by its first bar's time.
  const runner = async (inputs: Record<string, unknown>, bars: Bar[]): Promise<TrialOutcome> => {
    if (opts.signal.aborted) throw new EngineError("cancelled", "CANCELLED");
    const from = bars.length ? indexOfTime(times, bars[0].time) : 0;
    return runSlice(inputs, from, from + bars.length);
  };
  const { data, ...rest } = req;
  try {
    const fullRun = opts.fullRun;
    const result = await optimize({ ...rest, data: data.bars }, runner, {
      signal: opts.signal,
      concurrency: opts.concurrency,
      ...(fullRun ? { fullRun: (inputs: Record<string, unknown>) => fullRun(inputs) } : {}),
      onProgress: (p: StudyProgress) => onProgress({ done: p.completed, total: p.total, trial: p.trial }),
    });
    return result as unknown as OptimizeResult;
  } catch (e) {
    if (e instanceof OptimizeError) throw new EngineError(`${e.code}: ${e.message}`, e.code);
    throw e;
  }
}
