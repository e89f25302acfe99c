// The Properties tab (issue 19 item 2) in Chromium: strategy() settings overridden for a run, the
// result saying which were applied, remembered per script across a reload, and reset.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, screenshot, startServer, waitForRuns, type Server, openApp } from "./harness.js";

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

async function setProperty(p: Page, name: string, value: string): Promise<void> {
  const n = await runs(p);
  const field = p.locator(`#properties-panel [name="${name}"]`);
  if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
  else {
    await field.fill(value);
    await field.dispatchEvent("change");
  }
  await waitForRuns(p, n + 1);
}

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await openApp(server, browser, undefined, pageErrors);
  await pickExample(page, "ma-cross");
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("Properties (issue 19, item 2)", () => {
  it("shows the script's settings and overrides them for the run, saying which were applied", async () => {
    await page.click('nav.tabs button[data-tab="properties"]');
    expect(await page.getAttribute('#properties-panel [name="initial_capital"]', "placeholder")).toBe("10000");
    expect(await page.inputValue('#properties-panel [name="default_qty_type"]')).toBe("percent_of_equity");
    expect((await stats(page)).initial_capital).toBe(10000);
    expect((await stats(page)).commission_paid).toBe(0);
    await setProperty(page, "initial_capital", "50000");
    await setProperty(page, "commission_value", "0.1");
    // the run that applied both overrides: under load the count can be reached by the run before it,
    // so the result is awaited by what it must show (a lost override still fails here, at the timeout)
    await expect.poll(async () => (await stats(page)).commission_paid, { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await stats(page)).initial_capital).toBe(50000);
    const note = await page.textContent('[data-testid="properties-applied"]');
    expect(note).toContain("initial_capital 10000 → 50000");
    expect(note).toContain("commission_value 0 → 0.1");
    await setProperty(page, "default_qty_type", "fixed");
    expect(await page.textContent('[data-testid="properties-applied"]')).toContain(
      "default_qty_type percent_of_equity → fixed",
    );
    await screenshot(page, "properties-overridden");
  });

  it("remembers the overrides per script across a reload, and resets them", async () => {
    await page.reload();
    await page.waitForFunction(() => window.__resin?.ready === true && window.__resin.runCount() >= 1, null, {
      timeout: 60_000,
    });
    expect((await stats(page)).initial_capital).toBe(50000);
    // another strategy has its own (none)
    await pickExample(page, "breakout");
    expect(await page.evaluate(() => window.__resin.result()?.error)).toBeNull();
    expect((await stats(page)).initial_capital).not.toBe(50000);
    await pickExample(page, "ma-cross");
    expect((await stats(page)).initial_capital).toBe(50000);
    await page.click('nav.tabs button[data-tab="properties"]');
    const n = await runs(page);
    await page.click("text=Reset to the script's settings");
    await waitForRuns(page, n + 1);
    expect((await stats(page)).initial_capital).toBe(10000);
    expect(await page.textContent('[data-testid="properties-applied"]')).toMatch(/no overrides/);
    expect(pageErrors).toEqual([]);
  });

  it("keeps both of two edits made before the first one's run redraws the tab", async () => {
    // both fields changed in one task of the page: the first change's run cannot have redrawn the tab
    // (with the set it was rendered with) before the second change is made
    await page.evaluate(() => {
      for (const [name, value] of [
        ["initial_capital", "20000"],
        ["commission_value", "0.2"],
      ]) {
        const field = document.querySelector<HTMLInputElement>(`#properties-panel [name="${name}"]`)!;
        field.value = value!;
        field.dispatchEvent(new Event("change"));
      }
    });
    await expect.poll(async () => (await stats(page)).commission_paid, { timeout: 60_000 }).toBeGreaterThan(0);
    expect((await stats(page)).initial_capital).toBe(20000);
    const n = await runs(page);
    await page.click("text=Reset to the script's settings");
    await waitForRuns(page, n + 1);
    expect(pageErrors).toEqual([]);
  });
});
