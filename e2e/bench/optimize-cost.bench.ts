// The browser row of the optimize benchmark (issue 18 part 4), run by `npm run bench:browser-optimize`
// (vitest.bench-browser.config.ts; not part of the e2e run): what one trial of a study on the chart
// app's worker pool costs against a plain run of the same inputs in the same page. A study of
// bench/ema_atr_stop.pine over 20,000 generated bars on warm pools of 1 and 2 workers, then the same
// trials as plain runs one after another on one warm worker; the browser's CPU (every Chromium thread,
// /proc) around each, interleaved round by round. Figures are printed; e2e/optimize-cost.spec.ts
// checks the behaviour (a kept pool returns the same study every time, on 1 and 2 workers).

import { cpus, loadavg } from "node:os";
import { afterAll, beforeAll, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { formatSpread, spread } from "../../src/cli/spread.js";
import { cpuBetween, sampleBrowserCpu } from "../cpu.js";
import { assertBuilt, launchBrowser, startServer, type Server } from "../harness.js";
import { loadStrategy, poolStudy } from "../optimize-page.js";

let server: Server;
let browser: Browser;
let page: Page;

const BARS = Number(process.env.OPT_COST_BARS ?? 20_000);
const TRIALS = Number(process.env.OPT_COST_TRIALS ?? 32);
const ROUNDS = Number(process.env.OPT_COST_ROUNDS ?? 5);

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.__resin?.ready === true, null, { timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it("prices a trial on the worker pool against a plain run in the same page", async () => {
  await loadStrategy(page, BARS);

  const study = (workers: number, warmUp: "runs" | "none") => poolStudy(page, workers, TRIALS, warmUp);
  const measure = async <T>(work: () => Promise<T>): Promise<[T, number | null]> => {
    const a = sampleBrowserCpu();
    const r = await work();
    return [r, cpuBetween(a, sampleBrowserCpu())?.totalMs ?? null];
  };
  const load = [loadavg()[0]!];
  // warm-up: each pool starts its workers, gets the bars and runs the study once
  const first = { 1: await study(1, "runs"), 2: await study(2, "runs") };
  await page.evaluate((p) => window.__resin.benchPlainRuns(1, p), first[1].params);
  const cost: Record<1 | 2, number[]> = { 1: [], 2: [] };
  const rate: Record<1 | 2, number[]> = { 1: [], 2: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const w of [1, 2] as const) {
      const [res, cpu] = await measure(() => study(w, "none"));
      // (a figure of another study would mean nothing: e2e/optimize-cost.spec.ts checks this properly)
      if (res.digest !== first[1].digest || res.errors) throw new Error(`pool x${w} returned another study`);
      const [plain, plainCpu] = await measure(() =>
        page.evaluate((p) => window.__resin.benchPlainRuns(1, p), res.params),
      );
      rate[w].push(res.perSecond);
      if (cpu !== null && plainCpu !== null) cost[w].push(cpu / res.trials / (plainCpu / plain.runs));
    }
    load.push(loadavg()[0]!);
  }
  for (const w of [1, 2] as const)
    console.log(
      `[figure] browser pool x${w} (ema_atr_stop, ${BARS} bars, ${TRIALS} random in-sample trials, warm pool, ${ROUNDS} rounds): ` +
        `${formatSpread(spread(rate[w]), 1)} trials/s, a trial ${cost[w].length ? formatSpread(spread(cost[w]), 2) : "?"}x a plain run's browser CPU ` +
        `(load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${cpus().length} cores)`,
    );
});
