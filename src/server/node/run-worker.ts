// Worker-thread entry of the Node pool (pool.ts, through tinypool): evaluates one run job per call
// (the default export; `runJson` answers its result as JSON, UTF-8 bytes: an optimize winner's best_result) or one optimize trial (`trial`: its bars arrive as shared columns, its reply
// is the scored trades only), or several in one message (`trials`, in order, each marked on the batch's clock); `warm` answers once the thread is up (the engine below is loaded). Loaded from the built dist/ (dist/server/node/run-worker.js).
// Jobs a thread holds at once run one after another, each after the one before was answered (turns.ts).

import {
  evaluateJob,
  evaluateJobJsonBytes,
  evaluateTrial,
  evaluateTrials,
  type RunJob,
  type TrialBatch,
  type TrialJob,
} from "../engine.js";
import { createTurns } from "./turns.js";
// the engine loads when the thread starts, not with its first job (engine.ts imports it lazily for
// hosts that may never run one): a pool started ahead of a study loads it while the caller prepares
import "../../runtime/index.js";

const inTurn = createTurns();

export default function run(job: RunJob): Promise<unknown> {
  return inTurn(() => evaluateJob(job));
}

export function runJson(job: RunJob): Promise<unknown> {
  return inTurn(() => evaluateJobJsonBytes(job));
}

export function trial(job: TrialJob): Promise<unknown> {
  return inTurn(() => evaluateTrial(job));
}

export function trials(job: TrialBatch): Promise<unknown> {
  return inTurn(() => evaluateTrials(job));
}

export function warm(): null {
  return null;
}
