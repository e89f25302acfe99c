// The chart app set up for an optimize study of bench/ema_atr_stop.pine on its worker pool: shared by
// the behaviour check (e2e/optimize-cost.spec.ts) and the benchmark (e2e/bench/optimize-cost.bench.ts),
// so both study the same script, space and bars.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT, waitForRuns } from "./harness.js";

/** The searched inputs of bench/ema_atr_stop.pine. */
const SPACE: { name: string; kind: "int" | "float"; min: number; max: number; step: number }[] = [
  { name: "Fast length", kind: "int", min: 8, max: 16, step: 1 },
  { name: "Slow length", kind: "int", min: 20, max: 34, step: 2 },
  { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
];

/** Loads bench/ema_atr_stop.pine over `bars` generated bars in the app and waits for its run. */
export async function loadStrategy(page: Page, bars: number): Promise<void> {
  const before = await page.evaluate(() => window.__resin.runCount());
  const source = readFileSync(join(ROOT, "bench", "ema_atr_stop.pine"), "utf8");
  await page.evaluate(
    ([s, n]) => {
      window.__resin.setSource(s);
      window.__resin.useGeneratedData(n);
    },
    [source, bars] as const,
  );
  await page.click("#run");
  await waitForRuns(page, before + 1, 120_000);
}

/** A random in-sample study of `trials` on a kept pool of `workers` ("runs" warms a fresh pool first). */
export function poolStudy(page: Page, workers: number, trials: number, warmUp: "runs" | "none") {
  return page.evaluate(
    ([w, n, space, warm]) =>
      window.__resin.benchOptimize(w, n, "pool", { keep: true, space, sampler: "random", warmUp: warm }),
    [workers, trials, SPACE, warmUp] as const,
  );
}
