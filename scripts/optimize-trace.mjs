#!/usr/bin/env node
// Where `resin optimize`'s threads spend a study (docs/benchmarks.md "issue 18, session 12"): the CLI's
// own study (cli/optimize.js localStudy on studyEngine(N), as `resin optimize --workers N` runs it)
// over seeded random-walk bars, every trial timed where it ran: on the CLI's thread, or on a worker
// thread whose entry (optimize-trace-entry.mjs) stamps when the thread itself started and ended it. It
// prints when the threads joined, how many trials each place ran, how long the worker threads sat
// without a trial between two (from their own stamps) and how long the CLI's side held none for them,
// and each thread's CPU from /proc (Linux; the kernel's tick clock). Wall times mean something only on
// idle cores. Needs the build's dist/ (npm run build:lib).
// Usage: node scripts/optimize-trace.mjs [--dir .] [--workers 2] [--bars 100000] [--trials 200]
//          [--script bench/ema_atr_stop.pine] [--seed 1] [--each]   (--each: one line per trial)
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const opt = { dir: ".", workers: "2", bars: "100000", trials: "200", script: "bench/ema_atr_stop.pine", seed: "1" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, "");
  if (k === "each") opt.each = true;
  else opt[k] = argv[++i];
}
const dir = resolve(opt.dir);
const load = (p) => import(pathToFileURL(resolve(dir, "dist", p)).href);
const { studyEngine } = await load("cli/optimize-engine.js");
const { RUNS_PER_THREAD } = await load("cli/optimize-threads.js");
const { localStudy } = await load("cli/optimize.js");
const { prepareStudy } = await load("optimize/index.js");
const { randomWalkBars } = await load("runtime/synthetic.js");
const { WorkerPool } = await load("server/node/pool.js");

// the bench's space (src/cli/bench-optimize.ts) for ema_atr_stop; other scripts: their declared inputs
const SPACE = {
  params: [
    { name: "Fast length", kind: "int", min: 8, max: 16, step: 1 },
    { name: "Slow length", kind: "int", min: 20, max: 34, step: 2 },
    { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
  ],
};
const source = readFileSync(resolve(dir, opt.script), "utf8");
const t0 = performance.timeOrigin + performance.now();
const at = () => performance.timeOrigin + performance.now() - t0;
const engine = studyEngine(Number(opt.workers));
const study = prepareStudy({
  script: source,
  data: randomWalkBars(Number(opt.bars)),
  ...(opt.script.endsWith("ema_atr_stop.pine") ? { space: SPACE } : {}),
  n_trials: Number(opt.trials),
  sampler: "random",
  seed: Number(opt.seed),
  validation: { mode: "in-sample" },
});

const runs = [];
let joined = null;
/** Times every trial (and full run) through `eng`, at `place`. */
function traced(eng, place) {
  const trial = eng.trial.bind(eng);
  eng.trial = async (job, control) => {
    const sent = at();
    const r = await trial(job, control);
    runs.push({ place, sent, answered: at(), ...(r.stamp ? { start: r.stamp[0] - t0, end: r.stamp[1] - t0 } : {}) });
    return r;
  };
  return eng;
}
traced(engine, "here");
// the threads' pool, on the stamping entry (the study starts it when its gate lets threads in)
process.env.OPTIMIZE_TRACE_ENTRY = pathToFileURL(resolve(dir, "dist/bundle/run-worker.js")).href;
let pool = null;
Object.defineProperty(engine, "onThreads", {
  get() {
    if (!pool) {
      joined = at();
      const entry = new URL("./optimize-trace-entry.mjs", import.meta.url);
      pool = traced(new WorkerPool(entry, { size: engine.threads, jobsPerThread: RUNS_PER_THREAD }), "thread");
    }
    return pool;
  },
});
Object.defineProperty(engine, "threadsStarted", { get: () => pool !== null });
engine.startThreads = () => engine.onThreads.warm();
engine.close = async () => pool?.close();

const res = await localStudy(engine, study, source);
const ended = at();
const threadCpu = (() => {
  try {
    return readdirSync("/proc/self/task")
      .map((t) => {
        const f = readFileSync(`/proc/self/task/${t}/stat`, "utf8").split(") ")[1].split(" ");
        return [t === String(process.pid) ? "main" : t, (Number(f[11]) + Number(f[12])) * 10];
      })
      .filter(([, ms]) => ms > 0)
      .map(([t, ms]) => `${t} ${ms}`);
  } catch {
    return [];
  }
})();
await engine.close();

const here = runs.filter((r) => r.place === "here");
const there = runs.filter((r) => r.place === "thread").sort((a, b) => a.start - b.start);
const fmt = (ms) => `${ms.toFixed(0)} ms`;
console.log(
  `${opt.script}, ${opt.bars} bars, ${study.nTrials} trials, --workers ${opt.workers}: study ${fmt(ended)}; threads joined ${joined === null ? "never" : `at ${fmt(joined)}`}`,
);
console.log(`trials here ${here.length}, on threads ${there.length}; best ${JSON.stringify(res.best_params)}`);
if (there.length) {
  // a thread's idle time: from the end of everything it had started to its next start (stamps are per thread,
  // but with one thread, or threads that interleave, the union is what was idle)
  let idle = 0;
  let reach = there[0].end;
  for (const r of there.slice(1)) {
    idle += Math.max(0, r.start - reach);
    reach = Math.max(reach, r.end);
  }
  // the CLI's side: time with no trial sent to the threads and not yet answered
  const events = there
    .flatMap((r) => [
      [r.sent, 1],
      [r.answered, -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let last = events[0][0];
  let none = 0;
  for (const [t, d] of events) {
    if (open === 0) none += t - last;
    open += d;
    last = t;
  }
  console.log(
    `threads: first trial started ${fmt(there[0].start)}, took ${fmt(there[0].end - there[0].start)}; idle between trials ${fmt(idle)}; none held for them ${fmt(none)}`,
  );
}
if (threadCpu.length) console.log(`CPU by thread (ms, /proc): ${threadCpu.join(", ")}`);
if (opt.each)
  for (const r of [...runs].sort((a, b) => a.sent - b.sent))
    console.log(
      `${r.place.padEnd(6)} sent ${r.sent.toFixed(1)} answered ${r.answered.toFixed(1)}${r.start !== undefined ? ` ran ${r.start.toFixed(1)}-${r.end.toFixed(1)}` : ""}`,
    );
