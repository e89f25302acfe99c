// One host of `resin bench`'s optimize rows in a process of its own (bench-optimize.ts benchOptimize
// forks it): argv host, bench directory, bars, trials, rounds; the rounds go back over IPC. With host
// `plain` (argv plain, bench directory, bars) it is the plain runs' process of a host's rounds
// (bench-optimize.ts plainRunner): it answers each {params} message with the CPU ms per run.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateBars } from "./bench.js";
import { HOSTS, plainRunsHere, runHost, type HostName } from "./bench-optimize.js";

const [name, benchDir, bars, trials, rounds] = process.argv.slice(2);
if ((name !== "plain" && !HOSTS.includes(name as HostName)) || !benchDir)
  throw new Error(`bench-optimize-host: unknown host ${name}`);
const source = readFileSync(join(benchDir, "ema_atr_stop.pine"), "utf8");
if (name === "plain") {
  const runs = plainRunsHere(source, generateBars(Number(bars)), true);
  process.on("message", (m) => {
    void runs((m as { params: Record<string, unknown>[] }).params).then((ms) => process.send?.({ ms }));
  });
  process.on("disconnect", () => process.exit(0));
  process.send?.({ ready: true });
} else {
  const result = await runHost(
    name as HostName,
    source,
    generateBars(Number(bars)),
    Number(trials),
    Number(rounds),
    benchDir,
  );
  process.send?.(result);
}
