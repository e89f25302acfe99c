// Worker entry of scripts/optimize-trace.mjs: the build's own entry (OPTIMIZE_TRACE_ENTRY, its
// dist/bundle/run-worker.js), each trial's reply stamped with when the thread started and ended it
// (epoch ms: one clock for every thread).
const entry = await import(process.env.OPTIMIZE_TRACE_ENTRY);
const now = () => performance.timeOrigin + performance.now();

export default (job) => entry.default(job);
export const warm = () => entry.warm();
export async function trial(job) {
  const start = now();
  const reply = await entry.trial(job);
  return { ...reply, stamp: [start, now()] };
}
