// Values on hover and the symbol (issue 19 item 3), in Chromium: the legend shows OHLC and every
// plot's value at the hovered bar (equal to the result's series, in the plot's colour), prices use the
// symbol's tick size, the crosshair's time names the year, and the symbol dialog's description is what
// a run on uploaded data gets as syminfo.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  assertBuilt,
  launchBrowser,
  makeCsv,
  screenshot,
  startServer,
  waitForRuns,
  type Server,
  openApp,
} from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());

async function hover(p: Page, bar: number): Promise<void> {
  const x = await p.evaluate((b) => window.__resin.barX(b), bar);
  expect(x).not.toBeNull();
  const box = (await p.locator("#chart").boundingBox())!;
  await p.mouse.move(box.x + x!, box.y + box.height / 3);
  await expect.poll(() => p.getAttribute('[data-testid="legend-ohlc"]', "data-bar")).toBe(String(bar));
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

describe("data window and symbol (issue 19, item 3)", () => {
  it("shows OHLC and each plot's value at the hovered bar, coloured like the plot", async () => {
    const n = await runs(page);
    await page.selectOption("#data", "eurusd-1h");
    await waitForRuns(page, n + 1);
    const count = (await page.evaluate(() => window.__resin.result()))!.count;
    for (const bar of [count - 40, count - 120]) {
      await hover(page, bar);
      const items = await page.$$eval('[data-testid="legend-item"] .value', (els) =>
        els.map((e) => ({
          title: (e as HTMLElement).dataset.plot!,
          value: (e as HTMLElement).dataset.value!,
          text: e.textContent!,
          color: (e as HTMLElement).style.color,
        })),
      );
      expect(items.length).toBeGreaterThanOrEqual(2);
      for (const it of items) {
        const v = await page.evaluate(([t, b]) => window.__resin.plotValue(t as string, b as number), [it.title, bar]);
        expect(it.value === "" ? null : Number(it.value), it.title).toBe(v);
        expect(it.color).not.toBe("");
      }
      // EURUSD prices: five decimals (the tick of the data), in the legend and on the price axis
      expect(await page.textContent('[data-testid="legend-ohlc"]')).toMatch(
        /^O \d\.\d{5} H \d\.\d{5} L \d\.\d{5} C \d\.\d{5}$/,
      );
    }
    expect((await page.evaluate(() => window.__resin.seriesData())).pricePrecision).toBe(5);
    expect(await page.evaluate(() => window.__resin.crosshairLabel(0))).toMatch(/^\w{3} \d\d \w{3} 20\d\d \d\d:\d\d$/);
    await screenshot(page, "datawindow-hover-eurusd");
    // the pointer leaves: the values of the last bar
    await page.mouse.move(5, 5);
    await expect.poll(() => page.getAttribute('[data-testid="legend-ohlc"]', "data-bar")).toBe(String(count - 1));
  });

  it("runs uploaded data with the symbol dialog's description as syminfo", async () => {
    const n = await runs(page);
    await page.setInputFiles("#upload", { name: "mine.csv", mimeType: "text/csv", buffer: Buffer.from(makeCsv(300)) });
    await waitForRuns(page, n + 1);
    const src =
      '//@version=6\nindicator("sym")\nplot(syminfo.mintick, "tick")\nplot(syminfo.currency == "EUR" ? 1 : 0, "eur")\nplot(syminfo.timezone == "America/New_York" ? 1 : 0, "tz")\nplot(syminfo.type == "futures" ? 1 : 0, "fut")\n';
    await page.evaluate((s) => window.__resin.setSource(s), src);
    await page.click("#symbol-info");
    // the guess from the file's prices: two decimals
    expect(await page.inputValue('[data-testid="symbol-dialog"] input[name="mintick"]')).toBe("0.01");
    await page.fill('[data-testid="symbol-dialog"] input[name="mintick"]', "0.25");
    await page.fill('[data-testid="symbol-dialog"] input[name="timezone"]', "Mars/Olympus");
    await page.fill('[data-testid="symbol-dialog"] input[name="currency"]', "eur");
    await page.selectOption('[data-testid="symbol-dialog"] select[name="type"]', "futures");
    await page.click('[data-testid="symbol-save"]');
    expect(await page.textContent('[data-testid="symbol-error"]')).toMatch(/unknown time zone/);
    await page.fill('[data-testid="symbol-dialog"] input[name="timezone"]', "America/New_York");
    await screenshot(page, "datawindow-symbol-dialog");
    const m = await runs(page);
    await page.click('[data-testid="symbol-save"]');
    await waitForRuns(page, m + 1);
    const last = Object.fromEntries(
      (await page.evaluate(() => window.__resin.seriesData())).series.map((s) => [s.title, s.last]),
    );
    expect(last).toMatchObject({ tick: 0.25, eur: 1, tz: 1, fut: 1 });
    expect((await page.evaluate(() => window.__resin.seriesData())).pricePrecision).toBe(2);
    // the time axis and crosshair in the symbol's zone, as TradingView shows exchange time: the first
    // bar, 2024-01-01 00:00 UTC, is 19:00 the day before in New York
    expect(await page.evaluate(() => window.__resin.crosshairLabel(0))).toBe("Sun 31 Dec 2023 19:00");
    // kept for this data set across a reload
    await page.reload();
    await page.waitForFunction(() => window.__resin?.ready === true && window.__resin.runCount() >= 1, null, {
      timeout: 60_000,
    });
    const again = Object.fromEntries(
      (await page.evaluate(() => window.__resin.seriesData())).series.map((s) => [s.title, s.last]),
    );
    expect(again).toMatchObject({ tick: 0.25, eur: 1, tz: 1, fut: 1 });
    expect(pageErrors).toEqual([]);
  });
});
