#!/usr/bin/env node
// Whether `resin optimize` on N workers beats one (issue 18): whole `resin optimize` processes with
// --workers 1 and --workers N interleaved (src/cli/bench-workers.ts, which `resin bench` also prints
// after its optimize rows), over the sizes and samplers given. Needs the build (npm run build:lib).
//   node scripts/optimize-workers.mjs [--dir .] [--bars 20000,50000,100000] [--trials 200]
//        [--samplers auto,random] [--workers 2] [--rounds 3]
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: "." },
    bars: { type: "string", default: "20000,50000,100000" },
    trials: { type: "string", default: "200" },
    samplers: { type: "string", default: "auto,random" },
    workers: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
  },
});
const dir = resolve(values.dir);
const { benchWorkers, formatWorkers } = await import(pathToFileURL(resolve(dir, "dist/cli/bench-workers.js")).href);
console.log(
  `${cpus().length} cores, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
const rows = benchWorkers(
  {
    dir,
    bars: values.bars.split(",").map(Number),
    trials: Number(values.trials),
    samplers: values.samplers.split(","),
    workers: Number(values.workers),
    rounds: Number(values.rounds),
  },
  (line) => console.log(line),
);
console.log(`\n${formatWorkers(rows)}`);
