// The strategy report as TradingView's Strategy Report (issue 19 item 1), in Chromium at 1366x768 and
// 1920x1080: its tabs, tiles and tables equal to the engine's statistics (Long + Short adding up to
// All), the overview chart on the bars' time axis, the virtualised and sortable list of trades, and
// the CSV export in TradingView's "List of trades" layout.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ROOT, assertBuilt, launchBrowser, screenshot, startServer, waitForRuns, type Server } from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());
const stats = async (p: Page) => (await p.evaluate(() => window.__resin.result()))!.stats as Record<string, number>;

async function pickExample(p: Page, id: string): Promise<void> {
  const before = await runs(p);
  await p.selectOption("#example", id);
  await waitForRuns(p, before + 1);
}

/** The value cells of a metrics table: metric key -> side -> number (null for "—"). */
async function metricsTable(p: Page): Promise<Record<string, Record<string, number | null>>> {
  return p.$$eval('[data-testid="metrics"] tr[data-metric]', (rows) => {
    const out: Record<string, Record<string, number | null>> = {};
    for (const r of rows) {
      const key = (r as HTMLElement).dataset.metric!;
      out[key] = {};
      for (const td of r.querySelectorAll<HTMLElement>("td[data-side]"))
        out[key][td.dataset.side!] = td.dataset.value === "" ? null : Number(td.dataset.value);
    }
    return out;
  });
}

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
  page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.__resin?.ready === true, null, { timeout: 60_000 });
  await waitForRuns(page, 1);
  await page.selectOption("#data", "btc-1d");
  await waitForRuns(page, 2);
  await pickExample(page, "ma-cross");
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("strategy report (issue 19, item 1)", () => {
  it("has TradingView's tabs, and the overview tiles are the engine's statistics", async () => {
    const tabs = await page.locator('[data-testid="report-tabs"] button').allTextContents();
    expect(tabs).toEqual(["Overview", "Performance", "Trades analysis", "Risk/performance ratios", "List of trades"]);
    const s = await stats(page);
    const tiles = await page.$$eval('[data-testid="stats"] .stat', (els) =>
      els.map((e) => [(e as HTMLElement).dataset.metric, (e as HTMLElement).dataset.value]),
    );
    const byKey = Object.fromEntries(tiles.map(([k, v]) => [k, v === "" ? null : Number(v)]));
    for (const key of [
      "net_profit",
      "total_closed_trades",
      "percent_profitable",
      "profit_factor",
      "max_drawdown",
      "avg_trade",
      "avg_bars_in_trade",
    ])
      expect(byKey[key], key).toBe(s[key]);
    // the tile prints the engine's number (2 decimals, thousands separators)
    const net = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      s.net_profit,
    );
    expect(await page.textContent('[data-testid="stats"] [data-metric="net_profit"] .value')).toBe(net);
    await screenshot(page, "report-overview-1366");
  });

  it("draws equity, drawdown and buy & hold from the first bar to the last, at both screen sizes", async () => {
    for (const [w, hgt] of [
      [1920, 1080],
      [1366, 768],
    ]) {
      await page.setViewportSize({ width: w, height: hgt });
      await page.waitForTimeout(400);
      const ext = (await page.evaluate(() => window.__resin.reportExtent()))!;
      const day = 86_400;
      // no blank months before the first bar: the axis starts within a bar of it and ends at the last
      expect(Math.abs(ext.visibleFrom - ext.firstTime)).toBeLessThanOrEqual(day);
      expect(Math.abs(ext.visibleTo - ext.lastTime)).toBeLessThanOrEqual(day);
      await screenshot(page, `report-overview-${w}`);
    }
  });

  it("Performance, Trades analysis and Ratios: All from the engine, Long + Short = All", async () => {
    const s = await stats(page);
    await page.click('[data-testid="report-tabs"] button[data-tab="performance"]');
    let t = await metricsTable(page);
    for (const key of ["net_profit", "gross_profit", "gross_loss", "commission_paid", "max_runup", "max_drawdown"])
      expect(t[key].all, key).toBe(s[key]);
    expect(t.buy_and_hold_return.all).toBe(s.buy_and_hold_return);
    for (const key of ["net_profit", "gross_profit", "gross_loss"])
      expect(t[key].long! + t[key].short!).toBeCloseTo(t[key].all!, 6);
    await screenshot(page, "report-performance");
    await page.click('[data-testid="report-tabs"] button[data-tab="trades-analysis"]');
    t = await metricsTable(page);
    for (const key of [
      "total_closed_trades",
      "num_winning_trades",
      "num_losing_trades",
      "avg_trade",
      "largest_losing_trade",
    ])
      expect(t[key].all, key).toBe(s[key]);
    for (const key of ["total_closed_trades", "num_winning_trades", "num_losing_trades"])
      expect(t[key].long! + t[key].short!).toBe(t[key].all);
    expect(t.avg_bars_in_winning_trade.all).not.toBeNull(); // computed from the trades (the engine has none)
    await page.click('[data-testid="report-tabs"] button[data-tab="ratios"]');
    t = await metricsTable(page);
    expect(t.sharpe_ratio.all).toBe(s.sharpe_ratio);
    expect(t.sortino_ratio.all).toBe(s.sortino_ratio);
    expect(t.profit_factor.all).toBe(s.profit_factor);
    expect(t.margin_calls.all).toBe(s.margin_calls);
    // the Long side of the overview shows the long trades' own numbers
    await page.click('[data-testid="report-tabs"] button[data-tab="overview"]');
    await page.click('[data-testid="report-sides"] button[data-side="long"]');
    const longTrades = await page.getAttribute('[data-metric="total_closed_trades"]', "data-value");
    await page.click('[data-testid="report-tabs"] button[data-tab="trades-analysis"]');
    expect(Number(longTrades)).toBe((await metricsTable(page)).total_closed_trades.long);
    await page.click('[data-testid="report-sides"] button[data-side="all"]');
  });

  it("lists trades with entry and exit rows, sorts them, and keeps only the visible ones in the page", async () => {
    // a fast flip strategy on 20k bars: thousands of trades
    const flip =
      '//@version=6\nstrategy("Flip", overlay = true)\nif ta.crossover(close, ta.sma(close, 3))\n    strategy.entry("L", strategy.long)\nif ta.crossunder(close, ta.sma(close, 3))\n    strategy.entry("S", strategy.short)\n';
    await page.evaluate((src) => {
      window.__resin.setSource(src);
      window.__resin.useGeneratedData(20_000);
    }, flip);
    const n = await runs(page);
    await page.click("#run");
    await waitForRuns(page, n + 1, 120_000);
    const total = (await page.evaluate(() => window.__resin.result()))!;
    const count = total.trades! + total.open_trades!;
    expect(count).toBeGreaterThan(2000);
    await page.click('[data-testid="report-tabs"] button[data-tab="list"]');
    const rendered = await page.locator('[data-testid="trades"] .trow.trade').count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(100); // virtualised
    // newest first, each trade an exit line above its entry line
    const first = page.locator('[data-testid="trades"] .trow.trade').first();
    expect(await first.getAttribute("data-num")).toBe(String(count));
    expect(await first.locator(".two").first().textContent()).toMatch(/^(Exit|Open)?.*(long|short)Entry (long|short)$/);
    // scrolled to the end: trade #1 is rendered
    await page.$eval('[data-testid="trades"]', (el) => (el.scrollTop = el.scrollHeight));
    await expect
      .poll(() => page.locator('[data-testid="trades"] .trow.trade[data-num="1"]').count(), { timeout: 5000 })
      .toBe(1);
    // sort by Net P&L, largest first: the top trade is the largest winner
    await page.click('[data-testid="trades"] [data-sort="profit"]');
    const s = await stats(page);
    const topProfit = await page
      .locator('[data-testid="trades"] .trow.trade')
      .first()
      .locator(".two")
      .nth(5)
      .locator("span")
      .first()
      .textContent();
    expect(Number(topProfit!.replace(/,/g, ""))).toBeCloseTo(s.largest_winning_trade, 2);
    await screenshot(page, "report-list-of-trades");
  });

  it("exports the list as TradingView's CSV (header, two rows a trade, values of the engine)", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="export-csv"]')]);
    const csv = readFileSync((await download.path())!, "utf8");
    const tvHeader = readFileSync(
      join(ROOT, "tests/conformance/data/tradingview/strategy/rsi/trades.csv"),
      "utf8",
    ).split("\n")[0];
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe(tvHeader);
    const r = (await page.evaluate(() => window.__resin.result()))!;
    expect(lines.length - 1).toBe(2 * (r.trades! + r.open_trades!));
    const [entry, exit] = [lines[1].split(","), lines[2].split(",")];
    expect(entry.slice(0, 2)).toEqual(["1", expect.stringMatching(/^Entry (long|short)$/)]);
    expect(exit.slice(0, 2)).toEqual(["1", expect.stringMatching(/^Exit (long|short)$/)]);
    expect(entry[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    // the last closed trade's cumulative P&L is the net profit
    const lastExit = lines
      .filter((l) => /^\d+,Exit /.test(l) && !/,Open,/.test(l))
      .pop()!
      .split(",");
    expect(Number(lastExit[13])).toBeCloseTo((await stats(page)).net_profit, 1);
    expect(pageErrors).toEqual([]);
  });
});
