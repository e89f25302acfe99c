// The chart app's editor answers from the language services of `resin lsp` (a worker): typing `ta.`
// offers `sma`, hovering `ta.ema` shows its signature, a call shows signature help, and a script with
// several independent errors lists every one of them in Problems.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { assertBuilt, launchBrowser, screenshot, startServer, waitForRuns, type Server } from "./harness.js";

let server: Server;
let browser: Browser;
let page: Page;

async function setScript(p: Page, text: string): Promise<void> {
  await p.mouse.move(0, 0); // away from any hover tooltip
  await p.locator(".cm-content").focus();
  await p.keyboard.press("ControlOrMeta+a");
  await p.keyboard.press("Delete");
  await p.keyboard.insertText(text);
}

beforeAll(async () => {
  assertBuilt();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.goto(server.url + "/");
  await page.waitForFunction(() => window.__resin?.ready === true, null, { timeout: 60_000 });
  await waitForRuns(page, 1);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("editor language services", () => {
  it("completes ta. with sma", async () => {
    await setScript(page, '//@version=6\nindicator("lsp")\nfast = ta.ema(close, 10)\nplot(fast)\n');
    await page.keyboard.type("x = ta.");
    const option = page.locator(".cm-tooltip-autocomplete li", { hasText: /^sma/ });
    await option.first().waitFor({ timeout: 15_000 });
    expect(await page.locator(".cm-tooltip-autocomplete").textContent()).toContain("sma");
    await screenshot(page, "lsp-01-completion");
    await page.keyboard.press("Escape");
  });

  it("hovers ta.ema with its signature", async () => {
    const ema = page.locator(".cm-line", { hasText: "fast = ta.ema" });
    const box = (await ema.boundingBox())!;
    // "fast = ta.ema(": the hover target is `ema` (characters 10-12); place the mouse by character width
    const width = await page.evaluate(() => {
      const line = [...document.querySelectorAll(".cm-line")].find((l) => l.textContent?.startsWith("fast = ta.ema"))!;
      const range = document.createRange();
      const text = line.firstChild!;
      range.setStart(text, 0);
      range.setEnd(text, 1);
      return range.getBoundingClientRect().width;
    });
    await page.mouse.move(box.x + 4 + width * 11.5, box.y + box.height / 2);
    const tip = page.locator(".cm-tooltip-hover");
    await tip.waitFor({ timeout: 15_000 });
    await expect.poll(() => tip.textContent(), { timeout: 10_000 }).toContain("ta.ema(source, length) → series float");
    await screenshot(page, "lsp-02-hover");
  });

  it("shows signature help inside a call", async () => {
    await page.mouse.move(0, 0);
    await page.locator(".cm-content").focus();
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.type("\ny = ta.sma(close, ");
    const sig = page.locator(".cm-pine-signature");
    await expect.poll(() => sig.textContent(), { timeout: 15_000 }).toContain("ta.sma(source, length)");
    // the tooltip opens at "(" with `source` active and moves to `length` once the server has seen ", ":
    // wait for that answer instead of reading the first one
    await expect.poll(() => sig.locator("b").textContent(), { timeout: 15_000 }).toBe("length");
  });

  it("lists every independent error in Problems", async () => {
    await setScript(
      page,
      '//@version=6\nindicator("t")\na = foo + 1\nplot(close)\nc = close + "x"\nd = ta.sma(close, "10")\n',
    );
    await expect.poll(() => page.textContent("#problem-count"), { timeout: 15_000 }).toMatch(/^3\b/);
    await screenshot(page, "lsp-03-problems");
  });
});
