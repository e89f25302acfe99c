// Worker-thread entry of the Node pool (pool.ts, through tinypool): evaluates one run job per call
// (the default export) or one optimize trial (`trial`: its bars arrive as shared columns, its reply
// is the scored trades only). Loaded from the built dist/ (dist/server/node/run-worker.js).

import { evaluateJob, evaluateTrial, type RunJob, type TrialJob } from "../engine.js";

export default function run(job: RunJob): Promise<unknown> {
  return evaluateJob(job);
}

export function trial(job: TrialJob): Promise<unknown> {
  return evaluateTrial(job);
}
