#!/usr/bin/env node
// Per-bar cost on workerd under Miniflare, compiled (ahead of time, issue 24) vs interpreted
// (docs/benchmarks.md "Edge worker"). The edge worker is bundled with the bench scripts compiled
// ahead of time, then each script is POSTed to /run over generated bars in both modes, alternating,
// several times. The per-bar figure is the run's own time inside workerd past parse and check
// (profile total_ms - parse_ms - check_ms: whole-series passes, the bar loop, the result), divided by
// the bars; local workerd advances its clock during a request (production Workers only move it on
// I/O). The request's wall time seen from Node (JSON in and out included) is printed beside it. Median and range per script, and the machine load (uptime) before and after.
// Needs dist/ (npm run build:lib:ts) and build/kernels.wasm.
// Usage: node scripts/bench-edge.mjs [bars=30000] [runs=9] [scripts=ema_atr_stop,swing_state,strategy,loops,bench10]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { generateBarRows } from "../dist/cli/bench.js";
import { buildEdgeWorker, edgeModules, packageRoot } from "../dist/ops/edge-build.js";
import { Runtime } from "../dist/runtime/index.js";

const BARS = Number(process.argv[2] ?? 30000);
const RUNS = Number(process.argv[3] ?? 9);
const NAMES = (process.argv[4] ?? "ema_atr_stop,swing_state,strategy,loops,bench10").split(",");

const root = packageRoot();
const load = () => execFileSync("uptime", { encoding: "utf8" }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const scripts = NAMES.map((id) => ({ id, source: readFileSync(join(root, "bench", `${id}.pine`), "utf8") }));
const loadBefore = load();
const bundle = await buildEdgeWorker(join(root, "build", "edge-bench"), { scripts, deploy: "bench" });
if (bundle.aot.skipped.length) console.log("not compiled:", bundle.aot.skipped);
const mf = new Miniflare({
  name: "resin",
  modules: await edgeModules(bundle),
  compatibilityDate: "2024-11-01",
  compatibilityFlags: ["nodejs_compat"],
  kvNamespaces: ["RESIN_KV"],
  // the worker's one log line per request is not wanted here; workerd's errors are
  handleRuntimeStdio: (out, err) => {
    out.resume();
    err.pipe(process.stderr);
  },
});
const data = JSON.stringify(generateBarRows(BARS));

/** The same figure in this Node process (the Runtime, in-process), for comparison. */
const nodeBars = JSON.parse(data);
const rt = new Runtime("CHART", {});
async function nodeRun(source, mode) {
  const r = await rt.run(source, nodeBars, { mode });
  if (r.error || r.mode !== mode) throw new Error(`node ${mode}: ${r.error ?? r.compile_fallback_reason}`);
  const p = r.profile;
  return ((p.total_ms - p.phases.parse_ms - p.phases.check_ms) * 1000) / BARS;
}

/** One run: [per-bar us inside workerd, request wall ms]. */
async function run(source, mode) {
  const body = `{"script":${JSON.stringify(source)},"mode":"${mode}","timeout_seconds":60,"data":${data}}`;
  const t = performance.now();
  const res = await mf.dispatchFetch("http://edge.local/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = await res.json();
  const ms = performance.now() - t;
  if (json.error || json.count !== BARS) throw new Error(`${mode}: ${JSON.stringify(json).slice(0, 300)}`);
  if (json.mode !== mode) throw new Error(`asked ${mode}, ran ${json.mode}: ${json.compile_fallback_reason}`);
  const p = json.profile;
  return [((p.total_ms - p.phases.parse_ms - p.phases.check_ms) * 1000) / BARS, ms];
}

console.log(`workerd under Miniflare, ${BARS} bars, ${RUNS} runs per mode alternating (median, range)`);
console.log(`load before: ${loadBefore}`);
const rows = [];
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
const stat = (xs) => `${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
try {
  for (const s of scripts) {
    // warm-up: the isolate's first runs of each mode compile and optimise
    for (let w = 0; w < 2; w++) for (const mode of ["compile", "interpret"]) await run(s.source, mode);
    for (let w = 0; w < 2; w++) for (const mode of ["compile", "interpret"]) await nodeRun(s.source, mode);
    const perBar = { compile: [], interpret: [] };
    const wall = { compile: [], interpret: [] };
    const node = { compile: [], interpret: [] };
    for (let r = 0; r < RUNS; r++) {
      for (const mode of ["compile", "interpret"]) {
        const [us, ms] = await run(s.source, mode);
        perBar[mode].push(us);
        wall[mode].push(ms);
        node[mode].push(await nodeRun(s.source, mode));
      }
    }
    const row = {
      script: s.id,
      compile_us_per_bar: perBar.compile,
      interpret_us_per_bar: perBar.interpret,
      compile_wall_ms: wall.compile,
      interpret_wall_ms: wall.interpret,
      node_compile_us_per_bar: node.compile,
      node_interpret_us_per_bar: node.interpret,
      speedup: median(perBar.interpret) / median(perBar.compile),
    };
    rows.push(row);
    console.log(
      `${s.id.padEnd(13)} run us/bar: compile ${stat(perBar.compile)}  interpret ${stat(perBar.interpret)}  ` +
        `x${row.speedup.toFixed(2)} | Node us/bar: compile ${stat(node.compile)}  interpret ${stat(node.interpret)} | ` +
        `request ms: compile ${stat(wall.compile)}  interpret ${stat(wall.interpret)}`,
    );
  }
} finally {
  await mf.dispose();
}
console.log(`load after: ${load()}`);
if (process.env.BENCH_JSON) console.log(JSON.stringify(rows));
