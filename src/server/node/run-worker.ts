// Worker-thread entry of the Node pool (pool.ts, through tinypool): evaluates one run job per call.
// Loaded from the built dist/ (dist/server/node/run-worker.js).

import { evaluateJob, type RunJob } from "../engine.js";

export default function run(job: RunJob): Promise<unknown> {
  return evaluateJob(job);
}
