#!/usr/bin/env node
// Trials per second of a fanned-out study (issue 24) against its concurrency, under Miniflare
// (docs/benchmarks.md "Fanned-out studies"). The edge worker runs with its StudyCoordinator Durable
// Object and the EVALUATE service binding to itself; each run POSTs one random-sampler study (fixed
// seed, fixed batch size, so every run has the same trials and batches) and polls it to the end; the
// wall time from the POST to "done" gives trials/s. The in-process study (Node, the same module, one
// trial at a time) is measured beside it. Median and range per concurrency, the machine load
// (uptime) before and after.
// Needs dist/ (npm run build:lib:ts) and build/kernels.wasm.
// Usage: node scripts/bench-fanout.mjs [trials=200] [bars=2000] [runs=5] [concurrency=1,2,4,8,16] [batch=5]
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { generateBarRows } from "../dist/cli/bench.js";
import { buildEdgeWorker, edgeModules, packageRoot } from "../dist/ops/edge-build.js";
import { prepareStudy, runStudy } from "../dist/optimize/index.js";
import { createInProcessEngine, studyTrialRunner, TRIAL_BROKER } from "../dist/server/engine.js";

const TRIALS = Number(process.argv[2] ?? 200);
const BARS = Number(process.argv[3] ?? 2000);
const RUNS = Number(process.argv[4] ?? 5);
const LEVELS = (process.argv[5] ?? "1,2,4,8,16").split(",").map(Number);
const BATCH = Number(process.argv[6] ?? 5);

const STRATEGY = `//@version=6
strategy("bench fan", overlay=true)
len = input.int(20, "Length", minval=5, maxval=80)
mult = input.float(2.0, "Mult", minval=0.5, maxval=3.5)
basis = ta.sma(close, len)
dev = mult * ta.stdev(close, len)
if ta.crossover(close, basis + dev)
    strategy.entry("L", strategy.long)
if ta.crossunder(close, basis)
    strategy.close("L")
`;
const SPACE = {
  params: [
    { name: "Length", kind: "int", min: 5, max: 80 },
    { name: "Mult", kind: "float", min: 0.5, max: 3.5 },
  ],
};

const root = packageRoot();
const load = () => execFileSync("uptime", { encoding: "utf8" }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x) => x.toFixed(1);

const data = generateBarRows(BARS);
const request = { script: STRATEGY, data, space: SPACE, n_trials: TRIALS, sampler: "random", seed: 1 };
const loadBefore = load();
const bundle = await buildEdgeWorker(join(root, "build", "edge-bench-fanout"));
const mf = new Miniflare({
  name: "edge",
  modules: await edgeModules(bundle),
  compatibilityDate: "2024-11-01",
  compatibilityFlags: ["nodejs_compat"],
  r2Buckets: ["RESIN_BARS"],
  durableObjects: { STUDIES: "StudyCoordinator" },
  serviceBindings: { EVALUATE: "edge" },
  handleRuntimeStdio: (out, err) => {
    out.resume();
    err.pipe(process.stderr);
  },
});

async function call(path, json) {
  const res = await mf.dispatchFetch(`http://edge.local${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return res.json();
}

/** One fanned-out study: [trials/s, max batches in flight]. */
async function fanned(concurrency) {
  const t = performance.now();
  const s = await call("/studies", { ...request, concurrency, batch_size: BATCH });
  if (s.status !== "success") throw new Error(JSON.stringify(s));
  for (;;) {
    const st = await call(`/studies/${s.id}`);
    if (st.state === "done") return [(TRIALS * 1000) / (performance.now() - t), st.batches.max_in_flight];
    if (st.state !== "running") throw new Error(JSON.stringify(st));
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The in-process study in this Node process, one trial at a time (compile where eligible). */
async function inProcess() {
  const study = prepareStudy(request);
  const runner = studyTrialRunner(createInProcessEngine(), study, {
    script: STRATEGY,
    symbol: "CHART",
    broker: TRIAL_BROKER,
    options: { mode: "auto" },
  });
  const t = performance.now();
  await runStudy(study, runner);
  return (TRIALS * 1000) / (performance.now() - t);
}

console.log(`${TRIALS} trials (random, holdout: 2 runs each) over ${BARS} bars, batch_size ${BATCH}, ${RUNS} runs`);
console.log(`load before: ${loadBefore}`);
await fanned(LEVELS[0]); // warm-up: bundle load, kernels, the bars stored in R2
const rows = [];
for (const c of LEVELS) {
  const xs = [];
  let inflight = 0;
  for (let r = 0; r < RUNS; r++) {
    const [tps, m] = await fanned(c);
    xs.push(tps);
    inflight = Math.max(inflight, m);
  }
  rows.push([`fanned, concurrency ${c}`, xs, inflight]);
}
const local = [];
await inProcess();
for (let r = 0; r < RUNS; r++) local.push(await inProcess());
rows.push(["in-process Node study", local, 1]);
console.log("| setup | trials/s median | min - max | max in flight |");
console.log("|---|---|---|---|");
for (const [name, xs, m] of rows)
  console.log(`| ${name} | ${fmt(median(xs))} | ${fmt(Math.min(...xs))} - ${fmt(Math.max(...xs))} | ${m} |`);
console.log(`load after: ${load()}`);
await mf.dispose();
