#!/usr/bin/env node
// Interpret against compile on a spread of scripts (issue 18: interpret within 3x of compile on every
// script kind): each script's steady CPU time per run in both modes and their ratio, and the first
// run's, per build. One fresh Node process (--expose-gc) per (process round, build, script, mode)
// runs the script R times over the same generated bars (src/cli/bench.ts generateBars), a GC forced
// before each run; steady = median of runs 4..R, then the median over --procs processes. Builds given
// with several --dir alternate their order round by round. With --sample, the scripts are picked by a
// rule, not by hand: every bench/*.pine, every 10th tests/corpus/*.pine and every 15th
// tests/realworld/scripts/*.pine (sorted by name, from the first), plus any paths given.
// Needs each build's dist/ and build/kernels.wasm (npm run build:lib).
// Usage: node scripts/interp-ratio.mjs [--dir .]... [--bars 100000] [--runs 8] [--procs 1] [--sample] [x.pine ...]
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve, basename } from "node:path";
import { pathToFileURL } from "node:url";
const argv = process.argv.slice(2);
if (argv[0] === "--child") {
  const [, dir, script, mode, bars, runs] = argv;
  const { Runtime } = await import(pathToFileURL(resolve(dir, "dist/index.js")).href);
  const { generateBars } = await import(pathToFileURL(resolve(dir, "dist/cli/bench.js")).href);
  const source = readFileSync(script, "utf8");
  const data = generateBars(Number(bars));
  const rt = new Runtime("BENCH", { timeframe: "1" });
  const out = [];
  for (let i = 0; i < Number(runs); i++) {
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const r = await rt.run(source, data, { mode });
    const c = process.cpuUsage(c0);
    if (r.mode !== mode) {
      console.log(`@@mode ${r.mode}`);
      process.exit(0);
    }
    if (r.errors?.length && i === 0) console.log(`@@err ${JSON.stringify(r.errors[0]).slice(0, 200)}`);
    out.push((c.user + c.system) / 1000);
    if (i === 0 && out[0] > 4000) break;
  }
  console.log(`@@runs ${out.map((x) => x.toFixed(2)).join(" ")}`);
  process.exit(0);
}
const dirs = [];
let bars = 100000,
  runs = 8,
  procs = 1;
const files = [];
const repo = resolve(new URL("..", import.meta.url).pathname);
const every = (dir, k) =>
  readdirSync(resolve(repo, dir))
    .filter((f) => f.endsWith(".pine"))
    .sort()
    .filter((_, i) => i % k === 0)
    .map((f) => resolve(repo, dir, f));
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--dir") dirs.push(resolve(argv[++i]));
  else if (argv[i] === "--bars") bars = Number(argv[++i]);
  else if (argv[i] === "--runs") runs = Number(argv[++i]);
  else if (argv[i] === "--procs") procs = Number(argv[++i]);
  else if (argv[i] === "--sample")
    files.push(...every("bench", 1), ...every("tests/corpus", 10), ...every("tests/realworld/scripts", 15));
  else files.push(resolve(argv[i]));
}
if (dirs.length === 0) dirs.push(repo);
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const self = new URL(import.meta.url).pathname;
console.log(`load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
for (const f of files) {
  const row = { first: {}, steady: {} };
  let note = "";
  for (let p = 0; p < procs; p++)
    for (const dir of p % 2 ? [...dirs].reverse() : dirs)
      for (const mode of ["compile", "interpret"]) {
        const r = spawnSync(
          process.execPath,
          ["--expose-gc", self, "--child", dir, f, mode, String(bars), String(runs)],
          { encoding: "utf8", maxBuffer: 1 << 26 },
        );
        const text = r.stdout + r.stderr;
        const m = /@@runs (.*)/.exec(text);
        if (/@@mode (\w+)/.test(text)) note += ` ${mode}->${/@@mode (\w+)/.exec(text)[1]}`;
        if (/@@err/.test(text)) note += " err";
        if (!m) {
          note += ` fail(${mode}: ${text.split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 120)})`;
          continue;
        }
        const xs = m[1].split(" ").map(Number);
        const k = `${dirs.indexOf(dir)}:${mode}`;
        (row.first[k] ??= []).push(xs[0]);
        (row.steady[k] ??= []).push(med(xs.slice(3)));
      }
  const cells = dirs.map((_, d) => {
    const c = med(row.steady[`${d}:compile`] ?? [NaN]),
      i = med(row.steady[`${d}:interpret`] ?? [NaN]);
    const fc = med(row.first[`${d}:compile`] ?? [NaN]),
      fi = med(row.first[`${d}:interpret`] ?? [NaN]);
    return `c ${c.toFixed(1)} i ${i.toFixed(1)} r ${(i / c).toFixed(2)} | first c ${fc.toFixed(0)} i ${fi.toFixed(0)}`;
  });
  console.log(`${basename(f).padEnd(44)} ${cells.join("  ||  ")}${note}`);
}
console.log(`load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
