#!/usr/bin/env node
// Warm-up per run (docs/benchmarks.md "issue 18, session 9, warm-up"): what a user sees on the first
// runs of a script in one process (a CLI run, a browser tab's first runs, a benchmark's rounds), not
// the steady state. Each (build, script, mode) gets its own fresh Node process (--expose-gc) that
// runs the script R times over the same generated bars, a GC forced before each run, and reports
// each run's CPU time (process.cpuUsage: the main thread plus V8's background compiler and GC
// threads, so re-optimising counts; the main thread's share is printed too, from Linux schedstat) and how many functions V8 deoptimised during that run. Builds
// given with several --dir are interleaved process by process; the table gives per run index the
// median and range over the processes, and the machine load before and after.
// With --floors, each run is preceded by the script's hand-written floor (bench/floors.mjs, bench
// scripts only; a GC forced before it too), and a "steady" line gives per build the median over the
// processes of each process's median of runs 6 and on (min-max over the processes) and its ratio to
// the floor's, timed the same way in the same processes (docs/benchmarks.md's end-of-session tables).
// A script is a bench/ name or a path to a .pine file. Builds alternate their order process by process.
// Needs each build's dist/ and build/kernels.wasm (npm run build:lib).
// Usage: node scripts/warm.mjs [--dir .]... [--scripts ema_atr_stop,path/to/x.pine,...]
//          [--modes compile,interpret] [--bars 100000] [--runs 14] [--procs 6] [--floors] [--raw]
// (--raw also prints every process's row; the children run with --trace-deopt to count deopts, whose
// printing costs nothing measurable next to a run.)
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const argv = process.argv.slice(2);

if (argv[0] === "--child") {
  // one process: R runs of one script in one mode, a marker line after each
  const [, dir, script, mode, bars, runs, floors] = argv;
  const { Runtime } = await import(pathToFileURL(resolve(dir, "dist/index.js")).href);
  const { generateBars } = await import(pathToFileURL(resolve(dir, "dist/cli/bench.js")).href);
  const { FLOORS } = await import(pathToFileURL(resolve(dir, "bench/floors.mjs")).href);
  const source = readFileSync(
    script.endsWith(".pine") ? resolve(script) : resolve(dir, "bench", `${script}.pine`),
    "utf8",
  );
  const floor = floors === "floors" ? FLOORS.find((f) => f.script === script) : undefined;
  const data = generateBars(Number(bars));
  const rt = new Runtime("BENCH", { timeframe: "1" });
  // CPU ns of the main thread and of all threads (Linux schedstat; elsewhere the main share is NaN):
  // the difference is V8's background work, mostly optimising compiles and the GC's helpers
  const threads = () => {
    let main = Number.NaN;
    let all = 0;
    try {
      for (const tid of readdirSync("/proc/self/task")) {
        const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        all += ns;
        if (Number(tid) === process.pid) main = ns;
      }
    } catch {
      return [Number.NaN, Number.NaN];
    }
    return [main, all];
  };
  for (let i = 0; i < Number(runs); i++) {
    if (floor) {
      globalThis.gc?.();
      const f0 = process.cpuUsage();
      floor.run(data);
      const f = process.cpuUsage(f0);
      process.stdout.write(`@@floor ${i} ${((f.user + f.system) / 1000).toFixed(3)}\n`);
    }
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const [m0] = threads();
    const r = await rt.run(source, data, { mode });
    // (a trades floor returns the trade list's rows, which resin builds when they are read: the same work)
    if (floor?.kind === "trades") void [r.strategy?.trades.length, r.strategy?.open_trades.length];
    const c = process.cpuUsage(c0);
    const [m1] = threads();
    if (r.mode !== mode) throw new Error(`${script} ran in ${r.mode}, not ${mode}`);
    // (stdout, like V8's --trace-deopt lines: the deopts before a marker happened in that run)
    process.stdout.write(`@@run ${i} ${((c.user + c.system) / 1000).toFixed(2)} ${((m1 - m0) / 1e6).toFixed(2)}\n`);
  }
  process.exit(0);
}

const opt = {
  dir: [],
  scripts: "ema_atr_stop,ema_cross_bracket,swing_state,loops,bench10",
  modes: "compile,interpret",
};
Object.assign(opt, { bars: "100000", runs: "14", procs: "6", raw: false, floors: false });
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, "");
  if (k === "raw") opt.raw = true;
  else if (k === "floors") opt.floors = true;
  else if (k === "dir") opt.dir.push(argv[++i]);
  else if (k in opt) opt[k] = argv[++i];
  else throw new Error(`unknown option ${argv[i]}`);
}
if (opt.dir.length === 0) opt.dir.push(".");
const self = fileURLToPath(import.meta.url);
const load = () =>
  execFileSync("uptime", { encoding: "utf8" })
    .trim()
    .replace(/.*load/, "load");
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One child process: per run, CPU ms and the deopts V8 traced during it. */
function child(dir, script, mode) {
  const out = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--trace-deopt",
      self,
      "--child",
      dir,
      script,
      mode,
      opt.bars,
      opt.runs,
      opt.floors ? "floors" : "",
    ],
    { encoding: "utf8", maxBuffer: 1 << 28 },
  );
  if (out.status !== 0) throw new Error(`${script} ${mode} in ${dir}: ${out.stderr.slice(-2000)}`);
  const cpu = [];
  const main = [];
  const deopts = [];
  const floor = [];
  let n = 0;
  for (const line of out.stdout.split("\n")) {
    if (line.startsWith("[bailout")) n++;
    const f = /^@@floor \d+ ([\d.]+)/.exec(line);
    if (f) floor.push(Number(f[1]));
    const m = /^@@run (\d+) ([\d.]+) ([\d.a-zA-Z]+)/.exec(line);
    if (m) {
      cpu.push(Number(m[2]));
      main.push(Number(m[3]));
      deopts.push(n);
      n = 0;
    }
  }
  return { cpu, main, deopts, floor };
}

const builds = opt.dir.map((d) => resolve(d));
console.log(`warm-up: ${opt.bars} bars, ${opt.runs} runs a process, ${opt.procs} processes a build; ${load()}`);
for (const script of opt.scripts.split(",")) {
  for (const mode of opt.modes.split(",")) {
    const rows = new Map(builds.map((b) => [b, []]));
    for (let p = 0; p < Number(opt.procs); p++)
      for (const b of p % 2 ? [...builds].reverse() : builds) rows.get(b).push(child(b, script, mode));
    for (const b of builds) {
      const procs = rows.get(b);
      const cells = [];
      for (let r = 0; r < Number(opt.runs); r++) {
        const xs = procs.map((x) => x.cpu[r]);
        cells.push(`${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`);
      }
      const mcells = [];
      for (let r = 0; r < Number(opt.runs); r++) mcells.push(median(procs.map((x) => x.main[r])).toFixed(0));
      const dcells = [];
      for (let r = 0; r < Math.min(6, Number(opt.runs)); r++) dcells.push(median(procs.map((x) => x.deopts[r])));
      console.log(`${script} ${mode} ${b}`);
      console.log(`  CPU ms, runs 0..${Number(opt.runs) - 1}: ${cells.join(" ")}`);
      console.log(`  of it the main thread (median): ${mcells.join(" ")}`);
      console.log(`  deopts in runs 0..${dcells.length - 1} (median): ${dcells.join(" ")}`);
      const steady = procs.map((x) => median(x.cpu.slice(6)));
      const floors = procs.map((x) => median(x.floor.slice(6)));
      const ratio = floors.every((f) => f > 0)
        ? `, ${(median(steady) / median(floors)).toFixed(1)}x the floor's ${median(floors).toFixed(2)}`
        : "";
      if (steady.every((x) => x === x))
        console.log(
          `  steady (runs 6-${Number(opt.runs) - 1}): ${median(steady).toFixed(1)} (${Math.min(...steady).toFixed(1)}-${Math.max(...steady).toFixed(1)})${ratio}`,
        );
      if (opt.raw)
        for (const x of procs)
          console.log(`    ${x.cpu.map((c, r) => `${c.toFixed(0)}/${x.main[r].toFixed(0)}`).join(" ")}`);
    }
  }
}
console.log(`after: ${load()}`);
