// An optimize study run entirely inside one worker (trials one after another). The page normally
// runs the study itself and fans trials out over the pool; this is the single-worker path, used to
// measure what the pool buys and where only one worker is wanted.

import {
  optimize,
  type OptimizeRequest,
  type OptimizeResult,
  type TrialOutcome,
  type TrialRecord,
} from "../optimize/index.js";
import type { Bar, RunResult } from "../core/result.js";
import type { PackedBars, TrialRequest } from "./protocol.js";

export interface StudyRequest extends Omit<OptimizeRequest, "data"> {
  /** Key of the bar set stored in the worker. */
  barsKey: string;
}

export interface StudyProgress {
  done: number;
  total: number;
  /** The trial that just finished (the page's table streams them). */
  trial?: TrialRecord;
}

export async function runStudyInWorker(
  req: StudyRequest,
  bars: PackedBars,
  run: (r: TrialRequest) => Promise<TrialOutcome>,
  isCancelled: () => boolean,
  onProgress?: (p: StudyProgress) => void,
  /** A whole run (every result field): the winner over the whole set, for best_result. */
  runFull?: (r: TrialRequest) => Promise<RunResult>,
): Promise<OptimizeResult> {
  const { barsKey, ...rest } = req;
  const times = bars.time;
  const controller = new AbortController();
  const runner = async (inputs: Record<string, unknown>, slice: Bar[]): Promise<TrialOutcome> => {
    if (isCancelled()) controller.abort();
    // the study slices its bar array for validation: find the slice again by its first bar's time
    let from = 0;
    if (slice.length) {
      let hi = times.length;
      while (from < hi) {
        const mid = (from + hi) >> 1;
        if (times[mid] < slice[0].time) from = mid + 1;
        else hi = mid;
      }
    }
    const range: [number, number] = [from, from + slice.length];
    return run({
      source: req.script,
      barsKey,
      options: { inputs, mode: "auto" },
      slice: range,
      symbol: req.symbol ?? undefined,
    });
  };
  return optimize({ ...rest, data: bars }, runner, {
    signal: controller.signal,
    ...(runFull
      ? {
          fullRun: (inputs: Record<string, unknown>) =>
            runFull({
              source: req.script,
              barsKey,
              options: { inputs, mode: "auto" },
              symbol: req.symbol ?? undefined,
              runtime: { broker: { record_events: false } },
            }),
        }
      : {}),
    onProgress: (p) => onProgress?.({ done: p.completed, total: p.total, trial: p.trial }),
  });
}
