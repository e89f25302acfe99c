#!/usr/bin/env node
// Every real script in both backends (issue 18: which scripts are far from the rest, and why). One
// fresh Node process per script runs it over the same generated bars (src/cli/bench.ts generateBars)
// in compile and interpret alternately on one Runtime each, as a caller comparing the backends in
// one process does, up to --rounds rounds or 15 s; per mode the median CPU time of the last 5 rounds
// (none of the first two). Prints the interpret / compile ratios (median, p90, how many over 3x), the
// scripts with the highest ratio and the slowest per bar in compile; --out FILE also writes a JSON
// line per script (f, kind, c, i: CPU ms per run; cmode / imode when a run fell back, cerr / ierr).
// interp-ratio.mjs measures the ratio in separate processes with a GC before each run (the steady
// state of one backend alone); this shows what a mixed process sees. --one-process runs every script
// in one process, one after the other (as a harness timing its scripts in one process does: each
// script's runs then follow every earlier script's, see src/interpret/copies.ts). Needs dist/ and
// build/kernels.wasm (npm run build:lib).
// Usage: node scripts/survey.mjs [--dir .] [--bars 50000] [--rounds 10] [--top 25] [--out f.jsonl]
//        [--one-process] [x.pine ...]
//        (no files: every tests/realworld/scripts/*.pine)
import { spawnSync } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
const MODES = ["compile", "interpret"];

if (argv[0] === "--child") {
  const [, dir, bars, rounds, ...scripts] = argv;
  const { Runtime } = await import(pathToFileURL(resolve(dir, "dist/index.js")).href);
  const { generateBars } = await import(pathToFileURL(resolve(dir, "dist/cli/bench.js")).href);
  const data = generateBars(Number(bars));
  for (const script of scripts) {
    const source = readFileSync(script, "utf8");
    const out = Object.fromEntries(
      MODES.map((m) => [m, { xs: [], runtime: new Runtime("BENCH", { timeframe: "1" }) }]),
    );
    const t0 = Date.now();
    for (let i = 0; i < Number(rounds) && Date.now() - t0 < 15_000; i++)
      for (const mode of MODES) {
        const o = out[mode];
        const c0 = process.cpuUsage();
        const r = await o.runtime.run(source, data, { mode });
        const c = process.cpuUsage(c0);
        o.xs.push((c.user + c.system) / 1000);
        o.mode = r.mode;
        if (r.error) o.err = String(r.error).slice(0, 150);
      }
    for (const m of MODES) delete out[m].runtime;
    console.log(`@@${JSON.stringify({ script, ...out })}`);
  }
  process.exit(0);
}

let dir = resolve(new URL("..", import.meta.url).pathname);
let bars = 50_000,
  rounds = 10,
  top = 25,
  outFile = null,
  oneProcess = false;
const files = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--dir") dir = resolve(argv[++i]);
  else if (argv[i] === "--bars") bars = Number(argv[++i]);
  else if (argv[i] === "--rounds") rounds = Number(argv[++i]);
  else if (argv[i] === "--top") top = Number(argv[++i]);
  else if (argv[i] === "--out") outFile = argv[++i];
  else if (argv[i] === "--one-process") oneProcess = true;
  else files.push(resolve(argv[i]));
}
if (files.length === 0) {
  const d = resolve(dir, "tests/realworld/scripts");
  files.push(
    ...readdirSync(d)
      .filter((f) => f.endsWith(".pine"))
      .sort()
      .map((f) => resolve(d, f)),
  );
}

const median = (xs) => {
  const s = xs.slice(Math.max(2, xs.length - 5)).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : Number.NaN;
};
const kindOf = (src) =>
  /^\s*strategy\s*\(/m.test(src) ? "strategy" : /^\s*library\s*\(/m.test(src) ? "library" : "indicator";

const rows = [];
const self = new URL(import.meta.url).pathname;
console.log(
  `load ${readFileSync("/proc/loadavg", "utf8").trim()}; ${files.length} scripts, ${bars} bars${oneProcess ? ", one process" : ""}`,
);
/** The children's answers by script: one process per script, or one for all (--one-process). */
const answers = new Map();
const failures = new Map();
for (const group of oneProcess ? [files] : files.map((f) => [f])) {
  const r = spawnSync(process.execPath, [self, "--child", dir, String(bars), String(rounds), ...group], {
    encoding: "utf8",
    timeout: 120_000 * group.length,
    maxBuffer: 1 << 24,
  });
  for (const line of (r.stdout ?? "").split("\n").filter((l) => l.startsWith("@@"))) {
    const o = JSON.parse(line.slice(2));
    answers.set(o.script, o);
  }
  const why = (r.stderr || "no output (timeout?)").trim().split("\n").slice(-1)[0].slice(0, 200);
  for (const f of group) if (!answers.has(f)) failures.set(f, why);
}
for (const f of files) {
  const row = { f: basename(f), kind: kindOf(readFileSync(f, "utf8")) };
  const o = answers.get(f);
  if (!o) row.fail = failures.get(f);
  else {
    row.c = median(o.compile.xs);
    row.i = median(o.interpret.xs);
    if (o.compile.mode !== "compile") row.cmode = o.compile.mode;
    if (o.interpret.mode !== "interpret") row.imode = o.interpret.mode;
    if (o.compile.err) row.cerr = o.compile.err;
    if (o.interpret.err) row.ierr = o.interpret.err;
  }
  rows.push(row);
  if (outFile) appendFileSync(outFile, `${JSON.stringify(row)}\n`);
}

const both = rows.filter((r) => r.c > 0 && r.i > 0 && !r.cmode && !r.imode);
const ratios = both.map((r) => r.i / r.c).sort((a, b) => a - b);
const at = (q) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]?.toFixed(2);
console.log(
  `interpret / compile over ${both.length} scripts: median ${at(0.5)}, p90 ${at(0.9)}, over 3x ${ratios.filter((x) => x > 3).length}`,
);
for (const r of rows.filter((r) => r.fail || r.cmode || r.imode))
  console.log(`  not in the ratios: ${r.f} ${r.fail ?? `${r.cmode ?? ""} ${r.imode ?? ""}`}`);
const table = (title, list) => {
  console.log(title);
  for (const r of list)
    console.log(
      `  ${(r.i / r.c).toFixed(2).padStart(6)}  c ${r.c.toFixed(1).padStart(8)}  i ${r.i.toFixed(1).padStart(8)}  ${r.kind.padEnd(9)} ${r.f}`,
    );
};
table("highest interpret / compile (CPU ms per run):", [...both].sort((a, b) => b.i / b.c - a.i / a.c).slice(0, top));
table("slowest in compile:", [...both].sort((a, b) => b.c - a.c).slice(0, top));
console.log(`load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
