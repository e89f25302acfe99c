#!/usr/bin/env node
// A steady HTTP /optimize study's CPU (docs/benchmarks.md, issue 18 sessions 26-27): an HTTP server
// with a pool of two threads in this process (what `resin serve` runs) and a client process that
// posts --studies studies of --trials trials of bench/ema_atr_stop.pine over 20k generated bars, in
// the body form --form (rows, columns or base64; --round quotes the prices to 2 decimals, as markets
// do), after --warm warm-up studies (4; some 60 leave a long-lived server's state, where V8 has
// optimised the per-trial functions on every thread and compiles nothing more). The client writes
// each body (JSON.stringify of 20k bars is its CPU, not the server's). Prints per study this
// process's CPU and its share by thread (Linux /proc, 10 ms ticks): the main thread, the pool's two
// threads, and the others (V8's compiler and GC helpers); then the timed trials' inputs as plain
// in-process runs in a process of their own (bench-optimize.ts plainRunsHere) and the study's CPU
// over its trials' plain runs. Several --dir builds run one after the other, each in processes of
// their own. Unlike `resin bench`'s optimize rows (two studies a round, each next to its plain
// runs), every study here is a steady one, which makes a few milliseconds a study visible.
//   node scripts/optimize-http-cpu.mjs --dir . --dir ../base --form rows [--round] [--studies 40] [--trials 32] [--warm 4]
import { fork } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dir: { type: "string", multiple: true, default: ["."] },
    form: { type: "string", default: "rows" },
    round: { type: "boolean", default: false },
    studies: { type: "string", default: "40" },
    trials: { type: "string", default: "32" },
    warm: { type: "string", default: "4" },
    role: { type: "string", default: "main" },
  },
});
const self = fileURLToPath(import.meta.url);
const imp = (dir, p) => import(pathToFileURL(resolve(dir, p)).href);
/** This run's options for a child process in `role`, on build `dir`. */
const childArgs = (role, dir) => [
  "--role",
  role,
  "--dir",
  dir,
  "--form",
  values.form,
  "--studies",
  values.studies,
  "--trials",
  values.trials,
  "--warm",
  values.warm,
  ...(values.round ? ["--round"] : []),
];

/** The studies' script and bars (20k generated, --round: quoted to 2 decimals). */
async function scriptAndBars(dir) {
  const { generateBars } = await imp(dir, "dist/cli/bench.js");
  const source = readFileSync(resolve(dir, "bench/ema_atr_stop.pine"), "utf8");
  const cols = generateBars(20000);
  if (values.round)
    for (const k of ["open", "high", "low", "close", "volume"]) cols[k] = cols[k].map((x) => Math.round(x * 100) / 100);
  return { source, cols };
}

/** A study's request body by seed: the bench's bars in the form asked for. */
async function bodyMaker(dir) {
  const { barsInForm } = await imp(dir, "dist/cli/bench-optimize.js");
  const { source, cols } = await scriptAndBars(dir);
  const space = {
    params: [
      { name: "Fast length", kind: "int", min: 5, max: 20 },
      { name: "Slow length", kind: "int", min: 21, max: 60 },
      { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
    ],
  };
  const data = barsInForm(cols, values.form);
  const n = Number(values.trials);
  const validation = { mode: "in-sample" };
  return (seed) =>
    JSON.stringify({ script: source, space, n_trials: n, sampler: "random", seed, min_trades: 1, validation, data });
}

/** The client: writes and posts each study it is told of, answers with the study's status and its trials' inputs. */
async function client() {
  const body = await bodyMaker(values.dir[0]);
  process.on("message", async (m) => {
    const res = await fetch(m.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(m.seed),
    });
    const json = await res.json();
    process.send({ status: json.status, params: (json.trials ?? []).map((t) => t.params) });
  });
  process.on("disconnect", () => process.exit(0));
  process.send("ready");
}

/** The server side: one build's server, its studies timed. */
async function server() {
  const dir = resolve(values.dir[0]);
  const { startServer } = await imp(dir, "dist/server/node/host.js");
  const { createNodeEngine } = await imp(dir, "dist/server/node/pool.js");
  const running = await startServer({
    port: 0,
    host: "127.0.0.1",
    engine: createNodeEngine(2),
    env: {},
    out: () => {},
    err: () => {},
  });
  const url = new URL("/optimize", running.url).href;
  /** The timed studies' trials' inputs, for the plain runs. */
  const params = [];
  const poster = fork(self, childArgs("client", dir));
  await new Promise((ok) => poster.once("message", ok));
  const post = (seed) =>
    new Promise((ok, fail) => {
      poster.once("message", (m) => {
        if (m.status !== "success") fail(new Error(`/optimize: ${m.status}`));
        else {
          params.push(...m.params);
          ok();
        }
      });
      poster.send({ url, seed });
    });
  /** CPU ms of one of this process's threads (Linux /proc: 10 ms ticks). */
  const threadCpu = (tid) => {
    try {
      const f = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      return 0;
    }
  };
  const mainCpu = () => threadCpu(process.pid);
  /** Each thread's CPU ms by thread id. */
  const threads = () => new Map(readdirSync(`/proc/${process.pid}/task`).map((t) => [t, threadCpu(t)]));
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const studies = Number(values.studies);
  const warm = Number(values.warm);
  for (let i = 0; i < warm; i++) await post(i + 1);
  const c0 = cpu();
  const m0 = mainCpu();
  const th0 = threads();
  const t0 = performance.now();
  params.length = 0;
  for (let i = 0; i < studies; i++) await post(warm + i + 1);
  const perStudy = (x) => (x / studies).toFixed(1);
  const studyCpu = (cpu() - c0) / studies;
  // the other threads: the two busiest are the pool's, the rest V8's and libuv's
  const others = [...threads()]
    .filter(([t]) => t !== String(process.pid))
    .map(([t, ms]) => ms - (th0.get(t) ?? 0))
    .sort((a, b) => b - a);
  const pool = (others[0] ?? 0) + (others[1] ?? 0);
  const rest = others.slice(2).reduce((a, b) => a + b, 0);
  console.log(
    `${values.dir[0]} ${values.form}${values.round ? " (2 decimals)" : ""}: per study of ${values.trials} trials, ` +
      `process CPU ${studyCpu.toFixed(1)} ms: main thread ${perStudy(mainCpu() - m0)}, pool threads ${perStudy(pool)}, others ${perStudy(rest)}; wall ${perStudy(performance.now() - t0)} ms`,
  );
  poster.kill();
  await running.close(5);
  // the same trials' inputs as plain in-process runs, in a process of their own (bench-optimize.ts)
  const plain = fork(self, childArgs("plain", dir));
  const ms = await new Promise((ok) => {
    plain.once("message", ok);
    plain.send(params);
  });
  const trials = Number(values.trials);
  console.log(
    `  a plain run of the same inputs: ${ms.toFixed(2)} ms CPU; a study is ${(studyCpu / (trials * ms)).toFixed(2)}x its trials' plain runs`,
  );
  process.exit(0);
}

/** Plain runs of the inputs it is sent, over the same bars: CPU ms a run (after a round of warm-up). */
async function plainRuns() {
  const dir = resolve(values.dir[0]);
  const { plainRunsHere } = await imp(dir, "dist/cli/bench-optimize.js");
  const { source, cols } = await scriptAndBars(dir);
  const runs = plainRunsHere(source, cols, true);
  process.once("message", async (params) => {
    await runs(params.slice(0, 256));
    process.send(await runs(params));
    process.exit(0);
  });
}

if (values.role === "client") await client();
else if (values.role === "plain") await plainRuns();
else if (values.role === "server") await server();
else for (const dir of values.dir) await new Promise((done) => fork(self, childArgs("server", dir)).on("exit", done));
