#!/usr/bin/env node
// Two builds A/B in one process (docs/benchmarks.md "issue 18, session 22"): each build's dist is
// imported (two module graphs, two Runtimes), and every round runs each script once on each build,
// the order alternating round by round, a GC forced before each run (--expose-gc). Both builds see
// the same machine load run by run, so the median of the per-round ratios B/A is steadier under a
// loaded machine than two processes' medians; p10 is the 10th percentile of each build's runs.
// The first 8 rounds warm up and are not counted. Not a replacement for scripts/warm.mjs (a fresh
// process per build, its warm-up runs): two builds in one process share V8's heap and compiler
// threads, and a build's code can differ there from how it runs alone.
// Usage: node --expose-gc scripts/ab-inproc.mjs DIR_A DIR_B script[,script...] [mode=compile] [rounds=30] [bars=100000]
// (a script is a bench/ name or a path to a .pine file)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dirA, dirB, scripts, mode = "compile", roundsArg = "30", barsArg = "100000"] = process.argv.slice(2);
if (!dirA || !dirB || !scripts) {
  console.error("usage: node --expose-gc scripts/ab-inproc.mjs DIR_A DIR_B script[,script...] [mode] [rounds] [bars]");
  process.exit(2);
}
const load = async (dir) => {
  const { Runtime } = await import(pathToFileURL(resolve(dir, "dist/index.js")).href);
  const { generateBars } = await import(pathToFileURL(resolve(dir, "dist/cli/bench.js")).href);
  return { rt: new Runtime("BENCH", { timeframe: "1" }), generateBars };
};
const a = await load(dirA);
const b = await load(dirB);
const data = a.generateBars(Number(barsArg));
const rounds = Number(roundsArg);
const WARM = 8;
const sorted = (v) => [...v].sort((x, y) => x - y);
const at = (v, f) => sorted(v)[Math.min(v.length - 1, Math.floor(v.length * f))];
for (const name of scripts.split(",")) {
  const src = readFileSync(name.endsWith(".pine") ? resolve(name) : resolve(dirA, "bench", `${name}.pine`), "utf8");
  const ta = [];
  const tb = [];
  for (let i = 0; i < rounds; i++) {
    const runs = [
      { build: a, times: ta },
      { build: b, times: tb },
    ];
    if (i % 2 === 0) runs.reverse();
    for (const { build, times } of runs) {
      globalThis.gc?.();
      const c0 = process.cpuUsage();
      await build.rt.run(src, data, { mode });
      const c = process.cpuUsage(c0);
      if (i >= WARM) times.push((c.user + c.system) / 1000);
    }
  }
  const ratios = ta.map((x, i) => tb[i] / x);
  console.log(
    `${name} ${mode}: p10 A ${at(ta, 0.1).toFixed(2)} B ${at(tb, 0.1).toFixed(2)} | median A ${at(ta, 0.5).toFixed(2)} (${at(ta, 0.25).toFixed(1)}-${at(ta, 0.75).toFixed(1)}) B ${at(tb, 0.5).toFixed(2)} (${at(tb, 0.25).toFixed(1)}-${at(tb, 0.75).toFixed(1)}) | B/A median of rounds ${at(ratios, 0.5).toFixed(3)}`,
  );
}
