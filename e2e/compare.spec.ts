// "Compare with TradingView" (issue 19 item 4) in Chromium, on conformance cases: TradingView's own
// List of trades for the RSI strategy (its 2024 layout, and the same trades rewritten in the 2025
// layout) agrees with zero differences; an altered copy shows its first difference with the bar
// highlighted; a chart export with plot columns (the "ma" indicator case) agrees plot by plot, and an
// altered cell is found.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  ROOT,
  assertBuilt,
  launchBrowser,
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

const TV = join(ROOT, "tests/conformance/data/tradingview");
const read = (p: string) => {
  const buf = readFileSync(p);
  return (p.endsWith(".gz") ? gunzipSync(buf) : buf).toString("utf8");
};
const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());

async function upload(p: Page, name: string, text: string): Promise<void> {
  const n = await runs(p);
  await p.setInputFiles("#upload", { name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await waitForRuns(p, n + 1, 120_000);
}

async function runSource(p: Page, src: string): Promise<void> {
  const n = await runs(p);
  await p.evaluate((s) => window.__resin.setSource(s), src);
  await p.click("#run");
  await waitForRuns(p, n + 1, 120_000);
}

async function compareFile(p: Page, name: string, text: string): Promise<string> {
  await p.click('nav.tabs button[data-tab="compare"]');
  await p.setInputFiles('[data-testid="compare-file"]', { name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await expect
    .poll(() => p.textContent('[data-testid="compare-summary"]'))
    .toMatch(new RegExp(`^${name.replace(/\./g, "\\.")}`));
  return (await p.textContent('[data-testid="compare-summary"]'))!;
}

/** TradingView's 2024 export rewritten in its 2025 layout (exit line first, local times, new names). */
function to2025(csv: string, timezone: string): string {
  const lines = csv.trim().split("\n");
  const head = lines[0]
    .replace("Date/Time", "Date and time")
    .replace("Position size (qty)", "Size (qty)")
    .replace("Position size (value)", "Size (value)")
    .replace(/Run-up /, "Favorable excursion ")
    .replace("Run-up %", "Favorable excursion %")
    .replace(/Drawdown /, "Adverse excursion ")
    .replace("Drawdown %", "Adverse excursion %");
  const fmt = new Intl.DateTimeFormat("sv-SE", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const rows = lines.slice(1).map((l) => {
    const f = l.split(",");
    f[2] = fmt.format(new Date(Date.parse(f[2].replace(/([+-]\d\d)(\d\d)$/, "$1:$2"))));
    return f;
  });
  const out: string[] = [];
  for (let i = rows.length - 2; i >= 0; i -= 2) out.push(rows[i + 1].join(","), rows[i].join(",")); // newest first, exit above entry
  return `\uFEFF${head}\n${out.join("\n")}\n`;
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

describe("compare with TradingView (issue 19, item 4)", () => {
  const rsi = join(TV, "strategy/rsi");
  const trades = read(join(rsi, "trades.csv"));

  it("agrees with TradingView's List of trades of the RSI strategy: zero differences, both layouts", async () => {
    await upload(page, "EURUSD-1h.csv", read(join(rsi, "ohlcv.csv.gz")));
    // the case's symbol (settings.json): EURUSD, New York time, tick 0.00001
    await page.click("#symbol-info");
    await page.fill('[data-testid="symbol-dialog"] input[name="ticker"]', "CAPITALCOM:EURUSD");
    await page.fill('[data-testid="symbol-dialog"] input[name="timezone"]', "America/New_York");
    await page.fill('[data-testid="symbol-dialog"] input[name="mintick"]', "0.00001");
    await page.selectOption('[data-testid="symbol-dialog"] select[name="type"]', "forex");
    await page.click('[data-testid="symbol-save"]');
    await runSource(page, read(join(rsi, "script.pine")));
    expect((await page.evaluate(() => window.__resin.result()))?.error).toBeNull();
    const total = trades.trim().split("\n").length - 1;
    expect(await compareFile(page, "RSI_Strategy_List_of_trades.csv", trades)).toBe(
      `RSI_Strategy_List_of_trades.csv (2024 layout): ${total / 2} of ${total / 2} trades agree — no differences`,
    );
    expect(await page.locator('[data-testid="compare-first"]').count()).toBe(0);
    expect(await compareFile(page, "rsi-2025.csv", to2025(trades, "America/New_York"))).toBe(
      `rsi-2025.csv (2025 layout): ${total / 2} of ${total / 2} trades agree — no differences`,
    );
    await screenshot(page, "compare-trades-agree");
  });

  it("shows the first difference of an altered copy and highlights its bar", async () => {
    const lines = trades.trim().split("\n");
    const k = lines.findIndex((l) => l.startsWith("57,Exit"));
    const f = lines[k].split(",");
    f[4] = (Number(f[4]) + 0.001).toFixed(5);
    lines[k] = f.join(",");
    const summary = await compareFile(page, "altered.csv", `${lines.join("\n")}\n`);
    expect(summary).toMatch(/: 193 of 194 trades agree$/);
    const first = await page.textContent('[data-testid="compare-first"]');
    expect(first).toMatch(new RegExp(`^First difference — trade 57, exit price: resin [\\d.]+, TradingView ${f[4]}`));
    const bar = Number(await page.getAttribute('[data-testid="compare-first"]', "data-bar"));
    const exitBar = await page.evaluate(() => window.__resin.tradeExitBar(57));
    expect(bar).toBe(exitBar);
    expect((await page.evaluate(() => window.__resin.seriesData())).highlightedBar).toBe(bar);
    await screenshot(page, "compare-first-difference");
  });

  it("compares a chart export's plot columns, plot by plot, and finds an altered cell", async () => {
    const ma = join(TV, "ta/ma");
    await upload(page, "ma.csv", read(join(ma, "ohlcv.csv")));
    await runSource(page, read(join(ma, "script.pine")));
    const expected = read(join(ma, "expected.csv"));
    const plots = (await page.evaluate(() => window.__resin.result()))!.plot_titles.length;
    expect(await compareFile(page, "ma-chart.csv", expected)).toMatch(
      new RegExp(
        `: 150 of 150 rows on this chart's bars; ${plots} of ${plots} plots agree on every bar — no differences$`,
      ),
    );
    const rows = expected.trim().split("\n");
    // row 101 is bar 100; its third cell is the plot "ta.sma(hl2, 20)"
    const quoted = rows[101].replace(/^(\d+),([^,]+),([^,]+)/, (_m, t, a, b) => `${t},${a},${Number(b) + 0.01}`);
    expect(quoted).not.toBe(rows[101]);
    rows[101] = quoted;
    const summary = await compareFile(page, "ma-altered.csv", `${rows.join("\n")}\n`);
    expect(summary).toMatch(new RegExp(`${plots - 1} of ${plots} plots agree`));
    expect(await page.textContent('[data-testid="compare-first"]')).toMatch(/plot ta\.sma\(hl2, 20\), bar 100/);
    expect(await page.getAttribute('[data-testid="compare-first"]', "data-bar")).toBe("100");
    await screenshot(page, "compare-plots-first-difference");
    expect(pageErrors).toEqual([]);
  });
});
