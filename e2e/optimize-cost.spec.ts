// The chart app's worker pool keeps studies exact (issue 18 part 4): a study on kept (warm) pools of
// 1 and 2 workers returns the same trials and scores every round, without errors, as the first
// study on a fresh pool. What a trial costs there is a benchmark, not a test:
// e2e/bench/optimize-cost.bench.ts (`npm run bench:browser-optimize`).

import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, startServer, type Server } from "./harness.js";
import { loadStrategy, poolStudy } from "./optimize-page.js";

let server: Server;
let browser: Browser;
let page: Page;

const BARS = 4_000;
const TRIALS = 12;

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

it("a kept pool of 1 or 2 workers returns the same study every round", async () => {
  await loadStrategy(page, BARS);
  const study = (workers: number, warmUp: "runs" | "none") => poolStudy(page, workers, TRIALS, warmUp);
  const first = await study(1, "runs");
  expect(first.trials).toBe(TRIALS);
  expect(first.errors).toBe(0);
  // a study that found trades: the digest compares real scores, not a row of nulls
  expect(first.bestIndex).not.toBeNull();
  expect((await study(2, "runs")).digest).toBe(first.digest);
  for (let r = 0; r < 2; r++) {
    for (const w of [1, 2] as const) {
      const res = await study(w, "none");
      expect(res.errors).toBe(0);
      expect(res.digest).toBe(first.digest);
    }
  }
});
