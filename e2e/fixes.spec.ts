// The trader's-tool fixes of issue 19 item 8, end to end in Chromium: one marker per order on a
// reversal, runtime errors with their line and bar (banner and Problems, click to the line), Stop
// leaving nothing stale, the edge engine explained when nothing answers, and the optimizer's
// guidance, cancel and trial limit at 1366x768.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, screenshot, startServer, waitForRuns, type Server, openApp } from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());
const series = (p: Page) => p.evaluate(() => window.__resin.seriesData());

async function runSource(p: Page, src: string): Promise<void> {
  const n = await runs(p);
  await p.evaluate((s) => window.__resin.setSource(s), src);
  await p.click("#run");
  await waitForRuns(p, n + 1);
}

async function pickExample(p: Page, id: string): Promise<void> {
  const before = await runs(p);
  await p.selectOption("#example", id);
  await waitForRuns(p, before + 1);
}

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await openApp(server, browser, undefined, pageErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("trader's fixes (issue 19, item 8)", () => {
  it("draws one marker per order: a reversal is not two identical labels", async () => {
    await pickExample(page, "ma-cross");
    const snap = await series(page);
    const trades = (await page.evaluate(() => window.__resin.result()))!.trades!;
    expect(trades).toBeGreaterThan(5);
    expect(snap.orderMarkers).toBeGreaterThan(5);
    // every reversal after the first entry is one sell or buy order: fewer markers than fills
    expect(snap.orderMarkers).toBeLessThan(2 * trades);
    expect(snap.duplicateOrderMarkers).toBe(0);
  });

  it("shows a runtime error's line and bar in the banner and in Problems, and jumps to the line", async () => {
    const src =
      '//@version=6\nindicator("Fails late")\nplot(close, "c")\nif bar_index == 120\n    runtime.error("boom at 120")\n';
    await runSource(page, src);
    const banner = await page.textContent('[data-testid="notice"]');
    expect(banner).toMatch(/runtime error at line 5, bar 120 \(\d{4}-\d\d-\d\d/);
    expect(banner).toContain("boom at 120");
    const row = page.locator('[data-testid="problem"]').first();
    expect(await row.textContent()).toMatch(/^5:\d+ error: .*boom at 120.*bar 120/);
    expect(await page.textContent("#problem-count")).toBe("1");
    await row.click();
    // the editor's cursor is on line 5 (its active line is the runtime.error call)
    await expect.poll(() => page.textContent(".cm-activeLine")).toContain('runtime.error("boom at 120")');
    await screenshot(page, "fix-runtime-error");
  });

  it("Stop clears the chart, the legend and the report of the previous script", async () => {
    await pickExample(page, "ma-cross");
    expect((await series(page)).series.length).toBeGreaterThan(0);
    const heavy =
      '//@version=6\nindicator("Heavy loop")\nfloat acc = 0.0\nfor i = 0 to 40000\n    acc += math.sin(i * close)\nplot(acc, "acc")\n';
    await page.evaluate((s) => window.__resin.setSource(s), heavy);
    const n = await runs(page);
    await page.click("#run");
    await page.waitForSelector("#stop:not([hidden])");
    await page.waitForTimeout(300);
    await page.click("#stop");
    await waitForRuns(page, n + 1);
    expect(await page.textContent("#status")).toBe("run stopped");
    const snap = await series(page);
    expect(snap.series).toEqual([]);
    expect(snap.orderMarkers).toBe(0);
    expect((await page.textContent("#legend"))?.trim()).toBe("");
    expect(await page.textContent("#report-panel")).toContain("Stopped");
    expect(await page.evaluate(() => window.__resin.result())).toBeNull();
  });

  it("says how to start an edge worker when none answers, instead of 'Failed to fetch'", async () => {
    await page.click(".engine-settings summary");
    await page.fill("#edge-url", "http://127.0.0.1:9");
    await page.dispatchEvent("#edge-url", "change");
    await page.click(".engine-settings summary");
    await expect
      .poll(() => page.textContent('#engine option[value="edge"]'), { timeout: 10_000 })
      .toMatch(/not running/);
    await pickExample(page, "ma");
    const n = await runs(page);
    await page.selectOption("#engine", "edge");
    await waitForRuns(page, n + 1);
    const banner = await page.textContent('[data-testid="notice"]');
    expect(banner).toMatch(/No edge worker answers at http:\/\/127\.0\.0\.1:9/);
    expect(banner).toContain("resinctl dev worker");
    const m = await runs(page);
    await page.selectOption("#engine", "browser");
    await waitForRuns(page, m + 1);
  });

  it("explains inputs without bounds instead of INVALID_SPACE", async () => {
    const src =
      '//@version=6\nstrategy("Unbounded")\nlen = input.int(14, "Length")\nif ta.crossover(close, ta.sma(close, len))\n    strategy.entry("L", strategy.long)\nif ta.crossunder(close, ta.sma(close, len))\n    strategy.close("L")\n';
    await runSource(page, src);
    await page.click('nav.tabs button[data-tab="optimize"]');
    expect(await page.textContent('[data-testid="opt-guidance"]')).toMatch(/without minval\/maxval/);
    await page.click('[data-testid="opt-run"]');
    const status = await page.textContent('[data-testid="opt-status"]');
    expect(status).not.toContain("INVALID_SPACE");
    expect(status).toMatch(/Tick at least one input/);
    await screenshot(page, "fix-optimize-guidance");
  });

  it("keeps finished trials on Cancel (Apply best works on them), states the trial limit, fits 1366x768", async () => {
    await pickExample(page, "ma-cross");
    await page.evaluate(() => window.__resin.useGeneratedData(60_000));
    await page.click('nav.tabs button[data-tab="optimize"]');
    await page.fill('input[name="n_trials"]', "500");
    await page.click('[data-testid="opt-run"]');
    expect(await page.inputValue('input[name="n_trials"]')).toBe("200"); // clamped where the user sees it
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trials"] tr').length >= 3, null, {
      timeout: 180_000,
    });
    await page.click("text=Cancel");
    await expect.poll(() => page.textContent('[data-testid="opt-status"]')).toMatch(/cancelled after \d+ trials/);
    const rows = await page.locator('[data-testid="trials"] tr').count();
    expect(rows).toBeGreaterThanOrEqual(3);
    expect(await page.isEnabled('[data-testid="opt-apply"]')).toBe(true);
    const fit = await page.evaluate(() => {
      const panel = document.getElementById("optimize-panel")!;
      return {
        page: document.documentElement.scrollWidth <= window.innerWidth,
        panel: panel.scrollWidth <= panel.clientWidth + 1,
      };
    });
    expect(fit).toEqual({ page: true, panel: true });
    await screenshot(page, "fix-optimize-cancelled-1366");
    const n = await runs(page);
    await page.click('[data-testid="opt-apply"]');
    await waitForRuns(page, n + 1);
    expect((await page.evaluate(() => window.__resin.result()))?.error).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
