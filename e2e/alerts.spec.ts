// "Create alert" end to end (issue 25, item 4): the dialog registers the script with a real edge
// worker (workerd under Miniflare, D1 outbox) started here, a local receiver on 127.0.0.1 (allowed
// through the worker's OUTBOUND_ALLOW_HOSTS) counts what the bar-close job delivers, and the dialog
// shows the delivery history. With no worker answering, the dialog explains how to get one.
// Screenshots at 1366x768: e2e/artifacts/alert-*.png.

import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  type EdgeServer,
  launchBrowser,
  type Server,
  screenshot,
  startEdge,
  startServer,
  waitForRuns,
  openApp,
} from "./harness.js";

let server: Server;
let edge: EdgeServer;
let browser: Browser;
let page: Page;
let receiver: HttpServer;
let hookUrl: string;
const received: { headers: IncomingHttpHeaders; body: string; ok: boolean }[] = [];
/** Answers with 500 this many times (then 200). */
let failNext = 0;
const pageErrors: string[] = [];

// Two firings on every bar: an alertcondition with placeholders, an alert() whose message is JSON.
const SCRIPT = `//@version=6
indicator("Alert demo", overlay=true)
alertcondition(close > 0, "tick", "{{ticker}} closed at {{close}}")
alert('{"close": ' + str.tostring(close) + '}')
plot(close)
`;

async function setEdgeUrl(p: Page, url: string): Promise<void> {
  await p.click(".engine-settings summary");
  await p.fill("#edge-url", url);
  await p.dispatchEvent("#edge-url", "change");
  await p.click(".engine-settings summary");
}

async function openDialog(p: Page): Promise<void> {
  await p.click("#create-alert");
  await p.waitForSelector("[data-testid=alert-dialog]");
}

async function closeDialog(p: Page): Promise<void> {
  await p.keyboard.press("Escape");
  await p.waitForSelector("[data-testid=alert-dialog]", { state: "detached" });
}

beforeAll(async () => {
  assertBuilt();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body, ok: failNext === 0 });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500);
        return res.end("busy");
      }
      res.writeHead(200);
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  [server, edge, browser] = await Promise.all([
    startServer(),
    startEdge({ d1: true, bindings: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", OUTBOX_RETRY_BASE_MS: "0" } }),
    launchBrowser(),
  ]);
  page = await openApp(server, browser, undefined, pageErrors);
  const n = await page.evaluate(() => window.__resin.runCount());
  await page.evaluate((s) => window.__resin.setSource(s), SCRIPT);
  await page.click("#run");
  await waitForRuns(page, n + 1);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), edge?.stop()]);
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

describe("Create alert", () => {
  it("with no edge worker answering, explains how to get one instead of failing", async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    await setEdgeUrl(page, "http://127.0.0.1:9");
    await openDialog(page);
    const help = await page.waitForSelector("[data-testid=alert-no-edge]");
    const text = (await help.textContent()) ?? "";
    expect(text).toContain("No edge worker answers at http://127.0.0.1:9");
    expect(text).toContain("npx resinctl dev start");
    expect(text).toContain("under ⚙");
    await screenshot(page, "alert-no-edge");
    // The dialog fits the window: nothing cut off at 1366x768.
    const box = (await page.locator("[data-testid=alert-dialog]").boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    // The worker comes up (its URL set meanwhile): "Check again" finds it.
    await closeDialog(page);
    await setEdgeUrl(page, edge.url);
    await openDialog(page);
    await page.waitForSelector("[data-testid=alert-save]");
    expect(await page.locator("[data-testid=alert-no-edge]").count()).toBe(0);
    await closeDialog(page);
  });

  it("registers the script with a webhook, the job delivers each firing once, the history shows them", async () => {
    await openDialog(page);
    await page.waitForSelector("[data-testid=alert-save]");
    expect(await page.inputValue("[data-testid=alert-script-id]")).toBe("Alert-demo");
    const symbol = await page.inputValue("[data-testid=alert-symbol]");
    expect(symbol).not.toBe("");
    // A chat not on the worker's allowlist: the worker's coded refusal is shown, nothing is registered.
    await page.fill("[data-testid=alert-chat]", "12345");
    await page.fill("[data-testid=alert-webhook]", hookUrl);
    await page.fill("[data-testid=alert-secret]", "e2e-secret-1");
    await page.click("[data-testid=alert-save]");
    await expect.poll(() => page.textContent("[data-testid=alert-status]")).toContain("CHAT_NOT_ALLOWED");
    expect(await page.textContent("[data-testid=alert-status]")).toContain("resinctl secrets set resin CHAT_ALLOWLIST");
    await page.fill("[data-testid=alert-chat]", "");
    await page.click("[data-testid=alert-save]");
    await expect
      .poll(() => page.textContent("[data-testid=alert-status]"))
      .toMatch(/Registered 'Alert-demo' with 1 destination/);
    await page.click("[data-testid=alert-run]");
    await expect
      .poll(() => page.textContent("[data-testid=alert-status]"))
      .toMatch(/Job ran: 2 new firing\(s\), 2 delivered/);
    expect(received).toHaveLength(2);
    // TradingView's body convention, placeholders filled, signed.
    const json = received.find((r) => r.headers["content-type"] === "application/json")!;
    const text = received.find((r) => String(r.headers["content-type"]).startsWith("text/plain"))!;
    const close = (JSON.parse(json.body) as { close: number }).close;
    // {{ticker}} is the ticker without its exchange prefix, as on TradingView.
    expect(text.body).toBe(`${symbol.split(":").pop()} closed at ${close}`);
    for (const r of received) {
      const ts = r.headers["x-resin-timestamp"] as string;
      expect(r.headers["x-resin-signature"]).toBe(
        `sha256=${createHmac("sha256", "e2e-secret-1").update(`${ts}.${r.body}`).digest("hex")}`,
      );
    }
    await expect.poll(() => page.locator("[data-testid=alert-delivery]").count()).toBe(2);
    const rows = await page.locator("[data-testid=alert-delivery]").allTextContents();
    expect(rows.every((r) => r.includes("webhook") && r.includes("delivered"))).toBe(true);
    expect(rows.some((r) => r.includes(`closed at ${close}`))).toBe(true);
    await screenshot(page, "alert-dialog");
    const box = (await page.locator("[data-testid=alert-dialog]").boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    // Running again with no newer bar delivers nothing more: exactly once.
    await page.click("[data-testid=alert-run]");
    await expect.poll(() => page.textContent("[data-testid=alert-status]")).toMatch(/no new closed bar/);
    expect(received).toHaveLength(2);
    await closeDialog(page);
  });

  it("reopened, shows the registration and the history; a failed delivery waits in it and is retried", async () => {
    // A newer bar reaches the worker (as its feed would bring it) while the receiver fails once.
    const last = (await page.evaluate(() => window.__resin.result()))!.count;
    expect(last).toBeGreaterThan(0);
    const series = await page.evaluate(async (url) => {
      const jobs = await (await fetch(`${url}/cron/jobs`)).json();
      return jobs.jobs[0] as { symbol: string; timeframe: string };
    }, edge.url);
    const bars = await page.evaluate(
      async ({ url, symbol, timeframe }) => {
        const r = await fetch(`${url}/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            symbol,
            timeframe,
            bars: [{ time: Date.UTC(2100, 0, 1), open: 1, high: 2, low: 0.5, close: 1.5, volume: 1 }],
          }),
        });
        return (await r.json()).count as number;
      },
      { url: edge.url, ...series },
    );
    expect(bars).toBeGreaterThan(1);
    failNext = 1;
    await openDialog(page);
    await page.waitForSelector("[data-testid=alert-run]:not([hidden])");
    expect(await page.textContent("[data-testid=alert-save]")).toBe("Update alert");
    expect(await page.inputValue("[data-testid=alert-webhook]")).toBe(hookUrl);
    await expect.poll(() => page.locator("[data-testid=alert-delivery]").count()).toBe(2);
    // Updating with the secret field left empty keeps signing with the stored secret.
    await page.click("[data-testid=alert-save]");
    await expect.poll(() => page.textContent("[data-testid=alert-status]")).toMatch(/Registered 'Alert-demo'/);
    await page.click("[data-testid=alert-run]");
    await expect
      .poll(() => page.textContent("[data-testid=alert-status]"))
      .toMatch(/Job ran: 2 new firing\(s\), 0 delivered, 2 waiting/);
    await expect.poll(() => page.locator("[data-testid=alert-delivery].delivery-pending").count()).toBe(2);
    expect((await page.locator("[data-testid=alert-delivery].delivery-pending").allTextContents()).join()).toContain(
      "destination answered 500",
    );
    await screenshot(page, "alert-dialog-retry");
    // The next run (no new bar) retries the waiting firings: both arrive, each once.
    await page.click("[data-testid=alert-run]");
    await expect.poll(() => page.locator("[data-testid=alert-delivery].delivery-delivered").count()).toBe(4);
    expect(received).toHaveLength(5); // 2 + the failed attempt + 2
    const delivered = received.filter((r) => r.ok).map((r) => r.body);
    expect(delivered).toHaveLength(4);
    expect(delivered.filter((b) => b === '{"close": 1.5}')).toHaveLength(1);
    for (const r of received) {
      const ts = r.headers["x-resin-timestamp"] as string;
      expect(r.headers["x-resin-signature"]).toBe(
        `sha256=${createHmac("sha256", "e2e-secret-1").update(`${ts}.${r.body}`).digest("hex")}`,
      );
    }
    await closeDialog(page);
    expect(pageErrors).toEqual([]);
  });
});
