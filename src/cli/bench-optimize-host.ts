// One host of `resin bench`'s optimize rows in a process of its own (bench-optimize.ts benchOptimize
// forks it): argv host, bench directory, bars, trials, rounds; the rounds go back over IPC.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateBars } from "./bench.js";
import { HOSTS, runHost, type HostName } from "./bench-optimize.js";

const [name, benchDir, bars, trials, rounds] = process.argv.slice(2);
if (!HOSTS.includes(name as HostName) || !benchDir) throw new Error(`bench-optimize-host: unknown host ${name}`);
const source = readFileSync(join(benchDir, "ema_atr_stop.pine"), "utf8");
const result = await runHost(name as HostName, source, generateBars(Number(bars)), Number(trials), Number(rounds));
process.send?.(result);
