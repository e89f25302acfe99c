// The optimizer's pictures (issue 19 item 6) in Chromium: after a study of the MA-cross strategy, a
// heatmap of the score over two chosen inputs (one cell per distinct pair of values) and the
// in-sample vs out-of-sample scatter (one point per trial scored on both).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, screenshot, startServer, waitForRuns, type Server, openApp } from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await openApp(server, browser, { width: 1920, height: 1080 }, pageErrors);
  const n = await page.evaluate(() => window.__resin.runCount());
  await page.selectOption("#example", "ma-cross");
  await waitForRuns(page, n + 1);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("optimize heatmap and IS vs OOS scatter (issue 19, item 6)", () => {
  it("draws both after a study, from the trials in the table", async () => {
    await page.click('nav.tabs button[data-tab="optimize"]');
    await page.fill('input[name="n_trials"]', "30");
    await page.selectOption('select[name="sampler"]', "random");
    await page.click('[data-testid="opt-run"]');
    await expect
      .poll(() => page.textContent('[data-testid="opt-status"]'), { timeout: 180_000, interval: 500 })
      .toMatch(/30 trials in/);
    // the in-browser engine re-ran the winner over the whole chart (the answer's best_result)
    expect(await page.textContent('[data-testid="opt-status"]')).toMatch(/best #\d+ \(\d+ trades on all \d+ bars\)/);
    const trials = await page.$$eval('[data-testid="trials"] tr', (rows) =>
      rows.slice(1).map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")),
    );
    // columns: #, Fast length, Slow length, IS score, OOS score, ...
    const pairs = new Set(trials.filter((t) => t[3] !== "—" && !t[8]).map((t) => `${t[1]}|${t[2]}`));
    expect(Number(await page.getAttribute('[data-testid="opt-heatmap"]', "data-cells"))).toBe(pairs.size);
    const both = trials.filter((t) => t[3] !== "—" && t[4] !== "—" && !t[8]).length;
    expect(both).toBeGreaterThan(2);
    expect(Number(await page.getAttribute('[data-testid="opt-scatter"]', "data-points"))).toBe(both);
    // the axes can be swapped: still one cell per pair
    await page.selectOption('select[name="heat_x"]', "Slow length");
    await page.selectOption('select[name="heat_y"]', "Fast length");
    expect(Number(await page.getAttribute('[data-testid="opt-heatmap"]', "data-cells"))).toBe(pairs.size);
    await screenshot(page, "optimize-heatmap-scatter-1920");
    expect(pageErrors).toEqual([]);
  });
});
