// Worker-thread entry of the Node pool: evaluates run jobs posted by pool.ts, one at a time.
// Loaded from the built dist/ (dist/server/node/run-worker.js).

import { parentPort } from "node:worker_threads";
import { evaluateJob, type RunJob } from "../engine.js";

interface JobMessage {
  id: number;
  job: RunJob;
}

if (!parentPort) throw new Error("run-worker.js must run as a worker thread");
const port = parentPort;

port.on("message", async (msg: JobMessage) => {
  try {
    const result = await evaluateJob(msg.job);
    port.postMessage({ id: msg.id, result });
  } catch (err) {
    port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
