#!/usr/bin/env node
// Steady state against the floors (docs/benchmarks.md "session 10's end against its start"): per
// (script, mode), fresh Node processes per build, builds interleaved process by process (the order
// flipped every other round). Each process runs the script's hand-written floor (bench/floors.mjs,
// bench scripts only) and the script 14 times over the same 100k generated bars, a GC forced before
// each, and keeps the median CPU time (process.cpuUsage) of runs 6-13, past the JIT's warm-up
// (scripts/warm.mjs prints the runs before). Prints per build the median over processes (min-max) and
// its ratio to the floor's median. Needs each build's dist/ and build/kernels.wasm (npm run build:lib).
// Usage: DIRS=/old/tree,. SCRIPTS=ema_atr_stop,path/to/other.pine MODES=compile,interpret PROCS=3
//          node scripts/steady.mjs
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
const argv = process.argv.slice(2);
if (argv[0] === "--child") {
  const [, dir, script, mode] = argv;
  const { Runtime } = await import(pathToFileURL(`${dir}/dist/index.js`).href);
  const { generateBars } = await import(pathToFileURL(`${dir}/dist/cli/bench.js`).href);
  const { FLOORS } = await import(pathToFileURL(`${dir}/bench/floors.mjs`).href);
  const path = script.includes("/") ? script : `${dir}/bench/${script}.pine`;
  const src = readFileSync(path, "utf8");
  const data = generateBars(100000);
  const rt = new Runtime("BENCH", { timeframe: "1" });
  const floor = FLOORS.find((f) => f.script === script);
  const runs = [],
    fl = [];
  for (let i = 0; i < 14; i++) {
    if (floor) {
      globalThis.gc();
      const f0 = process.cpuUsage();
      floor.run(data);
      const f = process.cpuUsage(f0);
      fl.push((f.user + f.system) / 1000);
    }
    globalThis.gc();
    const c0 = process.cpuUsage();
    const r = await rt.run(src, data, { mode });
    const c = process.cpuUsage(c0);
    if (r.mode !== mode) throw new Error(`${script} ran in ${r.mode}`);
    runs.push((c.user + c.system) / 1000);
  }
  const med = (a) => {
    const s = [...a].sort((x, y) => x - y);
    return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
  };
  console.log(JSON.stringify({ steady: med(runs.slice(6)), floor: fl.length ? med(fl.slice(6)) : NaN }));
  process.exit(0);
}
const dirs = (process.env.DIRS ?? ".").split(",").map((d) => resolve(d));
const scripts = (process.env.SCRIPTS ?? "ema_atr_stop,ema_cross_bracket,swing_state,loops,bench10").split(",");
const modes = (process.env.MODES ?? "compile,interpret").split(",");
const procs = +(process.env.PROCS ?? 3);
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
console.log(
  `load before ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const script of scripts)
  for (const mode of modes) {
    const res = new Map(dirs.map((d) => [d, []]));
    for (let p = 0; p < procs; p++)
      for (const d of p % 2 ? [...dirs].reverse() : dirs) {
        const out = spawnSync(
          process.execPath,
          ["--expose-gc", new URL(import.meta.url).pathname, "--child", d, script, mode],
          { encoding: "utf8" },
        );
        const line = out.stdout.trim().split("\n").pop();
        try {
          res.get(d).push(JSON.parse(line));
        } catch {
          console.log("ERR", d, script, mode, out.stderr.slice(-300));
        }
      }
    const cells = dirs.map((d) => {
      const r = res.get(d);
      const s = r.map((x) => x.steady);
      const f = r.map((x) => x.floor);
      const ratio = f.some((x) => typeof x !== "number")
        ? ""
        : ` = ${(med(s) / med(f)).toFixed(1)}x floor ${med(f).toFixed(2)}`;
      return `${d.split("/").pop()} ${med(s).toFixed(1)} (${Math.min(...s).toFixed(1)}-${Math.max(...s).toFixed(1)})${ratio}`;
    });
    console.log(`${script.split("/").pop()} ${mode}: ${cells.join(" | ")}`);
  }
console.log(
  `load after ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
