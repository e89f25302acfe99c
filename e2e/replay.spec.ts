// Bar replay (issue 19 item 5) in Chromium: pick a bar on the chart, the chart cuts back to it, then
// step or play bar by bar. Replayed bars run as realtime bars with ticks (the runtime's
// realtimeFromBar/realtimeTicks): a varip counter counts every tick there and once per bar before,
// barstate.isrealtime is true only there. A strategy replayed to the last bar ends with the same trades
// and statistics as its backtest, and its report grows on the way.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, openApp, screenshot, startServer, waitForRuns, type Server } from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const TICKS_SCRIPT = `//@version=6
indicator("Replay ticks")
varip int ticks = 0
ticks += 1
plot(barstate.isrealtime ? 1 : 0, "rt")
plot(ticks, "ticks")
`;

const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());
const count = async (p: Page) => (await p.evaluate(() => window.__resin.result()))!.count;
const value = (p: Page, title: string, bar: number) =>
  p.evaluate(([t, b]) => window.__resin.plotValue(t as string, b as number), [title, bar] as const);
const shownTo = (p: Page) => p.getAttribute('[data-testid="replay-position"]', "data-to").then(Number);

/** Does `action` and waits for the run it starts. */
async function andRun(p: Page, action: () => Promise<unknown>): Promise<void> {
  const n = await runs(p);
  await action();
  await waitForRuns(p, n + 1);
}

async function clickBar(p: Page, bar: number): Promise<void> {
  const x = await p.evaluate((b) => window.__resin.barX(b), bar);
  expect(x).not.toBeNull();
  const box = (await p.locator("#chart").boundingBox())!;
  await p.mouse.click(box.x + x!, box.y + box.height / 3);
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

describe("bar replay (issue 19, item 5)", () => {
  let n = 0;
  let start = 0;

  it("cuts the chart back to the clicked bar; the bars before it are history", async () => {
    await andRun(page, async () => {
      await page.evaluate((s) => window.__resin.setSource(s), TICKS_SCRIPT);
      await page.click("#run");
    });
    n = await count(page);
    expect(await value(page, "ticks", n - 1)).toBe(n); // no replay: one count per bar
    await page.click("#replay");
    expect(await page.isVisible('[data-testid="replay-bar"]')).toBe(true);
    expect(await page.textContent('[data-testid="replay-position"]')).toMatch(/Click the bar/);
    start = n - 40;
    await andRun(page, () => clickBar(page, start));
    expect(await shownTo(page)).toBe(start + 1);
    expect(await count(page)).toBe(start + 1);
    const chart = await page.evaluate(() => window.__resin.seriesData());
    expect(chart.candles).toBe(start + 1);
    expect(await value(page, "rt", start)).toBe(0);
    expect(await value(page, "ticks", start)).toBe(start + 1);
  });

  it("steps bar by bar; each replayed bar is realtime and walked through its ticks", async () => {
    for (let k = 1; k <= 3; k++) await andRun(page, () => page.click('[data-testid="replay-step"]'));
    expect(await shownTo(page)).toBe(start + 4);
    expect(await count(page)).toBe(start + 4);
    expect((await page.evaluate(() => window.__resin.seriesData())).candles).toBe(start + 4);
    expect(await value(page, "rt", start)).toBe(0);
    for (let k = 1; k <= 3; k++) expect(await value(page, "rt", start + k)).toBe(1);
    // 4 ticks a replayed bar (the default) on top of one count per history bar
    expect(await value(page, "ticks", start + 3)).toBe(start + 1 + 3 * 4);
    await andRun(page, () => page.selectOption('select[name="replay-ticks"]', "10"));
    expect(await value(page, "ticks", start + 3)).toBe(start + 1 + 3 * 10);
    expect(await page.textContent('[data-testid="replay-position"]')).toMatch(/3 replayed/);
    // the HTTP engine gets the same window (the bars so far, realtime from the chosen bar) and agrees
    await andRun(page, () => page.selectOption("#engine", "http"));
    expect(await count(page)).toBe(start + 4);
    expect(await value(page, "ticks", start + 3)).toBe(start + 1 + 3 * 10);
    expect(await value(page, "rt", start + 1)).toBe(1);
    await andRun(page, () => page.selectOption("#engine", "browser"));
    await screenshot(page, "replay-1366x768");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(300);
    await screenshot(page, "replay-1920x1080");
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it("replays a strategy to the last bar: the report grows to the backtest's trades and statistics", async () => {
    // the backtest first (leaving replay shows every bar again)
    await andRun(page, () => page.click('button:has-text("Exit ✕")'));
    expect(await count(page)).toBe(n);
    await andRun(page, () => page.selectOption("#example", "ma-cross"));
    const full = (await page.evaluate(() => window.__resin.result()))!;
    expect(full.trades).toBeGreaterThan(3);
    await page.click("#replay");
    const from = n - 150;
    await andRun(page, () => clickBar(page, from));
    const early = (await page.evaluate(() => window.__resin.result()))!;
    expect(early.count).toBe(from + 1);
    expect(early.trades).toBeLessThan(full.trades!);
    await andRun(page, () => page.selectOption('select[name="replay-ticks"]', "1"));
    await page.selectOption('select[name="replay-speed"]', "0");
    await page.click('[data-testid="replay-play"]');
    await page.waitForFunction(
      (last) => document.querySelector('[data-testid="replay-position"]')?.getAttribute("data-to") === String(last),
      n,
      { timeout: 180_000 },
    );
    await page.waitForFunction(() => document.querySelector('[data-testid="replay-play"]')?.textContent === "▶ Play");
    const end = (await page.evaluate(() => window.__resin.result()))!;
    expect(end.count).toBe(n);
    expect(end.trades).toBe(full.trades);
    expect(end.open_trades).toBe(full.open_trades);
    expect(end.stats).toEqual(full.stats);
    // the report's list of trades shows them
    expect(((await page.evaluate(() => window.__resin.tradesCsv())) ?? "").trim().split("\n").length).toBeGreaterThan(
      full.trades!,
    );
    expect(pageErrors).toEqual([]);
  });
});
