// The optimize rows of `resin bench` (issue 18): one study of bench/ema_atr_stop.pine over generated
// bars on each Node host's engine (in-process, and the worker-thread pool with 1 and 2 threads, the
// engine behind `resin optimize` and /optimize), next to a plain in-process run of the same bars.
// Reported per host: trials a second, and what one trial costs in engine time (wall time per trial
// times the threads) as a multiple of the plain run. The browser pool needs a browser: its trial
// path (setBars once, compact replies) is covered by tests/web, not timed here.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { prepareStudy, runStudy, toBarArray } from "../optimize/index.js";
import { Runtime } from "../runtime/index.js";
import { createInProcessEngine, type Engine, studyTrialRunner, TRIAL_BROKER } from "../server/engine.js";
import { createNodeEngine } from "../server/node/pool.js";
import type { ColumnarBars } from "../core/result.js";

export interface OptimizeRow {
  host: string;
  bars: number;
  trials: number;
  ms: number;
  trialsPerSecond: number;
  /** Engine time of one trial (wall per trial x threads) over a plain in-process run of the same bars. */
  trialCost: number;
}

const SPACE = {
  params: [
    { name: "Fast length", kind: "int", min: 8, max: 16, step: 1 },
    { name: "Slow length", kind: "int", min: 20, max: 34, step: 2 },
    { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
  ],
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchOptimize(
  benchDir: string,
  data: ColumnarBars,
  log: (line: string) => void,
  nTrials = 16,
): Promise<OptimizeRow[]> {
  const source = readFileSync(join(benchDir, "ema_atr_stop.pine"), "utf8");
  const rows = toBarArray(data);
  const bars = rows.length;
  // the plain run: the same script, bar columns and overrides in this process, as a library user runs it
  const rt = new Runtime("CHART", { broker: TRIAL_BROKER });
  const plain: number[] = [];
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now();
    await rt.run(source, data, { mode: "auto", inputs: { "Fast length": 10 + (i % 3) } });
    if (i >= 3) plain.push(performance.now() - t0);
  }
  const plainMs = median(plain);
  log(`  optimize     plain run of ema_atr_stop, ${bars} bars: ${plainMs.toFixed(1)} ms`);
  const hosts: [string, () => Engine & { close?(): Promise<void> }, number][] = [
    ["in-process", () => createInProcessEngine(), 1],
    ["threads x1", () => createNodeEngine(1), 1],
    ["threads x2", () => createNodeEngine(2), 2],
  ];
  const out: OptimizeRow[] = [];
  for (const [host, make, threads] of hosts) {
    const engine = make();
    try {
      const study = () => {
        const s = prepareStudy({
          script: source,
          data: rows,
          space: SPACE,
          n_trials: nTrials,
          sampler: "random",
          seed: 1,
          min_trades: 1,
          validation: { mode: "in-sample" },
        });
        const runner = studyTrialRunner(engine, s, {
          script: source,
          symbol: "CHART",
          broker: TRIAL_BROKER,
          options: { mode: "auto" },
        });
        return runStudy(s, runner, { concurrency: engine.concurrency });
      };
      await study(); // warm-up: threads start, kernels load, code is compiled and optimised
      const t0 = performance.now();
      const res = await study();
      const ms = performance.now() - t0;
      const n = res.trials.length;
      const row: OptimizeRow = {
        host,
        bars,
        trials: n,
        ms,
        trialsPerSecond: (n * 1000) / ms,
        trialCost: (ms * threads) / n / plainMs,
      };
      out.push(row);
      log(
        `  optimize     ${host.padEnd(11)} ${n} trials in ${ms.toFixed(0)} ms: ${row.trialsPerSecond.toFixed(1)} trials/s, a trial ${row.trialCost.toFixed(2)}x a plain run`,
      );
    } finally {
      await engine.close?.();
    }
  }
  return out;
}
