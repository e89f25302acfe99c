// The chart app end to end in Chromium against the real server: default run, inputs, CSV upload,
// a strategy with markers and report, an in-browser optimize, and the HTTP engine. Figures (run
// time on 100k bars, optimize throughput) are printed, not asserted.

import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { cpuBetween, sampleBrowserCpu } from "./cpu.js";
import {
  ROOT,
  assertBuilt,
  launchBrowser,
  makeCsv,
  screenshot,
  startEdge,
  startServer,
  waitForRuns,
  type EdgeServer,
  type Server,
} from "./harness.js";

let server: Server;
let edge: EdgeServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const series = (p: Page) => p.evaluate(() => window.__resin.seriesData());
const runs = (p: Page) => p.evaluate(() => window.__resin.runCount());

async function pickExample(p: Page, id: string): Promise<void> {
  const before = await runs(p);
  await p.selectOption("#example", id);
  await waitForRuns(p, before + 1);
}

beforeAll(async () => {
  assertBuilt();
  [server, edge, browser] = await Promise.all([startServer(), startEdge(), launchBrowser()]);
  // a laptop screen; the large-screen layout is checked after the reload
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.goto(server.url + "/");
  await page.waitForFunction(() => window.__resin?.ready === true, null, { timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await edge?.stop();
});

describe("chart app", () => {
  it("runs the default script and draws its plots", async () => {
    await waitForRuns(page, 1);
    const result = await page.evaluate(() => window.__resin.result());
    expect(result?.error).toBeNull();
    const snap = await series(page);
    expect(snap.candles).toBe(2000);
    const lines = snap.series.filter((s) => s.type === "line");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(l.points).toBeGreaterThan(1900);
    expect(snap.markers).toBeGreaterThan(0); // crossover shapes
    expect(snap.backgroundRects).toBeGreaterThan(0); // bgcolor bands painted
    await screenshot(page, "01-default-indicator");
  });

  it("re-runs when an input changes and the plot follows", async () => {
    const before = (await series(page)).series.find((s) => s.title === "Fast SMA")!;
    const n = await runs(page);
    const field = page.locator('.input-row[data-title="Fast length"] input');
    await field.fill("3");
    await field.dispatchEvent("change");
    await waitForRuns(page, n + 1);
    const after = (await series(page)).series.find((s) => s.title === "Fast SMA")!;
    expect(after.points).toBeGreaterThan(before.points); // a shorter window starts earlier
    expect(after.last).not.toBe(before.last);
    await screenshot(page, "02-input-changed");
  });

  it("shows parser diagnostics while typing and per-line timings with the profiler", async () => {
    await page.click(".cm-content");
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.type("\nx = (1 + ");
    await expect.poll(() => page.textContent("#problem-count"), { timeout: 10_000 }).toMatch(/^[1-9]/);
    expect(await page.locator(".cm-lintRange-error").count()).toBeGreaterThan(0);
    for (let k = 0; k < 10; k++) await page.keyboard.press("Backspace");
    await expect.poll(() => page.textContent("#problem-count"), { timeout: 10_000 }).toBe("");
    const n = await runs(page);
    await page.check("#profiler");
    await waitForRuns(page, n + 1);
    await page.click('nav.tabs button[data-tab="profile"]');
    expect(await page.locator("table.profile tr").count()).toBeGreaterThan(3);
    await screenshot(page, "02b-profiler");
    await page.uncheck("#profiler");
    await waitForRuns(page, n + 2);
  });

  it("draws lines, boxes and labels", async () => {
    await pickExample(page, "drawings");
    expect((await page.evaluate(() => window.__resin.result()))?.error).toBeNull();
    await expect
      .poll(async () => (await series(page)).drawings)
      .toMatchObject({ line: 1, box: 1, polyline: 1, table: 1, label: expect.any(Number) });
    expect(await page.locator("#tables table.pine-table.top-right td").allTextContents()).toEqual([
      "Close",
      expect.stringMatching(/^\d+\.\d\d$/),
      "50-bar range",
      expect.stringMatching(/^\d+\.\d\d$/),
    ]);
    await page.click('nav.tabs button[data-tab="logs"]');
    expect(await page.textContent("#logs-panel")).toMatch(/Logs \(1\)[\s\S]*last close \d/);
    await screenshot(page, "02c-drawings");
    await pickExample(page, "ma");
  });

  it("draws plotcandle as candles, and colours that change bar by bar", async () => {
    await pickExample(page, "heikin");
    expect((await page.evaluate(() => window.__resin.result()))?.error).toBeNull();
    let snap = await series(page);
    const ha = snap.series.find((s) => s.title === "Heikin Ashi")!;
    expect(ha).toMatchObject({ type: "ohlc", pane: 1, points: snap.candles });
    expect(ha.colors).toBe(2); // teal and red bodies, not one colour
    expect(snap.candleColors).toBe(2); // barcolor tints the chart's own candles
    await screenshot(page, "02d-plotcandle");
    await pickExample(page, "macd");
    snap = await series(page);
    expect(snap.series.find((s) => s.title === "Histogram")).toMatchObject({ type: "histogram", pane: 1, colors: 4 });
    expect(snap.series.find((s) => s.title === "MACD")?.colors).toBe(0); // a constant colour stays a series option
    expect(snap.markerColors).toBe(2); // cross markers coloured per bar
    await screenshot(page, "02e-bar-colours");
    await pickExample(page, "ma");
  });

  it("puts a non-overlay indicator in its own pane with its levels, band and alerts", async () => {
    await pickExample(page, "rsi");
    const snap = await series(page);
    expect(snap.panes).toBe(2);
    expect(
      snap.series
        .filter((s) => s.pane === 1)
        .map((s) => s.type)
        .sort(),
    ).toEqual(["hline", "hline", "line"]);
    expect(snap.series.find((s) => s.title === "RSI")!.points).toBeGreaterThan(1900);
    await page.click('nav.tabs button[data-tab="logs"]');
    expect(await page.textContent("#logs-panel")).toMatch(/Alerts \([1-9]\d*\)[\s\S]*RSI above 70: \d/);
    await screenshot(page, "02f-own-pane-alerts");
    await pickExample(page, "ma");
  });

  it("loads a CSV file, and explains a bad one", async () => {
    const n = await runs(page);
    await page.setInputFiles("#upload", {
      name: "hourly.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(makeCsv(300)),
    });
    await waitForRuns(page, n + 1);
    expect((await series(page)).candles).toBe(300);
    await page.setInputFiles("#upload", {
      name: "broken.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("time,open,high,low,close\n2024-01-01,1,2,0.5,1.5\n2024-01-02,1,0.4,0.9,1\n"),
    });
    await expect.poll(() => page.textContent("#status")).toMatch(/line 3: high 0.4 is below low 0.9/);
    // the reason is shown over the chart too, not only in the status line
    expect(await page.isVisible('[data-testid="notice"]')).toBe(true);
    expect(await page.textContent('[data-testid="notice"]')).toMatch(
      /broken\.csv: .*line 3: high 0.4 is below low 0.9/,
    );
    expect((await series(page)).candles).toBe(300); // the good data stays
    await screenshot(page, "03-csv-loaded");
    await page.click("#notice-close");
    expect(await page.isVisible('[data-testid="notice"]')).toBe(false);
  });

  it("runs a strategy: entry/exit markers and the report", async () => {
    await page.selectOption("#data", "btc-1d");
    await waitForRuns(page, (await runs(page)) + 1);
    await pickExample(page, "ma-cross");
    const result = await page.evaluate(() => window.__resin.result());
    expect(result?.error).toBeNull();
    expect(result?.script_type).toBe("strategy");
    expect(result!.trades!).toBeGreaterThan(5);
    const snap = await series(page);
    expect(snap.markers).toBeGreaterThan(5); // fills on one bar share a marker
    expect(await page.locator('[data-testid="stats"] .stat').count()).toBeGreaterThan(5);
    await page.click('[data-testid="report-tabs"] button[data-tab="list"]');
    expect(await page.locator('[data-testid="trades"] .trow.trade').count()).toBeGreaterThan(5);
    await page.click('[data-testid="report-tabs"] button[data-tab="overview"]');
    await screenshot(page, "04-strategy-report");
  });

  it("optimizes 20 trials in the browser and applies the best parameters", async () => {
    await page.click('nav.tabs button[data-tab="optimize"]');
    await page.fill('input[name="n_trials"]', "20");
    await page.click('[data-testid="opt-run"]');
    await expect
      .poll(() => page.textContent('[data-testid="opt-status"]'), { timeout: 180_000, interval: 500 })
      .toMatch(/20 trials in/);
    expect(await page.locator('[data-testid="trials"] tr').count()).toBe(21);
    expect(await page.$eval('[data-testid="opt-progress"]', (el) => (el as HTMLProgressElement).value)).toBe(20);
    const n = await runs(page);
    await page.click('[data-testid="opt-apply"]');
    await waitForRuns(page, n + 1);
    const best = await page.locator("tr.best td").allTextContents();
    await page.click('nav.tabs button[data-tab="inputs"]');
    const fast = await page.inputValue('.input-row[data-title="Fast length"] input');
    expect(best.slice(1, 3).map((s) => s.replace(/,/g, ""))).toContain(fast);
    await screenshot(page, "05-optimized");
  });

  it("switches to the HTTP engine against the same server", async () => {
    const n = await runs(page);
    await page.selectOption("#engine", "http");
    await waitForRuns(page, n + 1);
    await expect.poll(() => page.textContent("#status")).toMatch(/HTTP server/);
    const result = await page.evaluate(() => window.__resin.result());
    expect(result?.error).toBeNull();
    expect((await series(page)).series.filter((s) => s.points > 0).length).toBeGreaterThanOrEqual(2);
    await screenshot(page, "06-http-engine");
    // the HTTP engine's optimize is the server's /optimize (no per-trial progress, one reply)
    await pickExample(page, "ma-cross");
    await page.click('nav.tabs button[data-tab="optimize"]');
    await page.fill('input[name="n_trials"]', "10");
    await page.click('[data-testid="opt-run"]');
    await expect
      .poll(() => page.textContent('[data-testid="opt-status"]'), { timeout: 120_000, interval: 500 })
      .toMatch(/10 trials in/);
    expect(await page.locator('[data-testid="trials"] tr').count()).toBe(11);
    await page.click('nav.tabs button[data-tab="inputs"]');
    const m = await runs(page);
    await page.selectOption("#engine", "browser");
    await waitForRuns(page, m + 1);
  });

  it("switches to the edge worker (workerd) and draws the same plots as the in-browser engine", async () => {
    await pickExample(page, "macd");
    const pick = (snap: Awaited<ReturnType<typeof series>>) =>
      snap.series.map(({ title, type, pane, points, last, colors, sum }) => ({
        title,
        type,
        pane,
        points,
        last,
        colors,
        sum,
      }));
    const local = pick(await series(page));
    expect(local.length).toBeGreaterThanOrEqual(4);
    await page.click(".engine-settings summary");
    await page.fill("#edge-url", edge.url);
    await page.dispatchEvent("#edge-url", "change");
    await page.click(".engine-settings summary");
    const n = await runs(page);
    await page.selectOption("#engine", "edge");
    await waitForRuns(page, n + 1);
    await expect.poll(() => page.textContent("#status")).toMatch(/MACD: .* on Edge worker/);
    expect((await page.evaluate(() => window.__resin.result()))?.mode).toBe("interpret"); // the edge default
    expect(pick(await series(page))).toEqual(local);
    await screenshot(page, "06b-edge-engine");
    const m = await runs(page);
    await page.selectOption("#engine", "browser");
    await waitForRuns(page, m + 1);
    await pickExample(page, "ma-cross");
  });

  it("restores script, data and inputs after a reload, and fits laptop and large screens", async () => {
    const fast = await page.inputValue('.input-row[data-title="Fast length"] input');
    await page.reload();
    await page.waitForFunction(() => window.__resin?.ready === true && window.__resin.runCount() >= 1, null, {
      timeout: 60_000,
    });
    expect(await page.textContent(".cm-content")).toContain('strategy("MA cross strategy"');
    expect(await page.inputValue("#data")).toBe("btc-1d");
    expect(await page.inputValue("#engine")).toBe("browser");
    expect(await page.inputValue('.input-row[data-title="Fast length"] input')).toBe(fast);
    for (const [w, hgt] of [
      [1366, 768],
      [1920, 1080],
    ]) {
      await page.setViewportSize({ width: w, height: hgt });
      await page.waitForTimeout(300);
      const fit = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth > window.innerWidth,
        chart: document.getElementById("chart")!.getBoundingClientRect().width,
      }));
      expect(fit.overflow).toBe(false);
      expect(fit.chart).toBeGreaterThan(w / 2);
      await screenshot(page, `08-layout-${w}x${hgt}`);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it("stops a long run and keeps working", async () => {
    const heavy =
      '//@version=6\nindicator("Heavy loop")\nfloat acc = 0.0\nfor i = 0 to 20000\n    acc += math.sin(i * close)\nplot(acc, "acc")\n';
    await page.evaluate((src) => window.__resin.setSource(src), heavy);
    await page.click("#run");
    await page.waitForSelector("#stop:not([hidden])");
    await page.waitForTimeout(300);
    const n = await runs(page);
    await page.click("#stop");
    await expect.poll(() => page.textContent("#status")).toBe("run stopped");
    await waitForRuns(page, n + 1);
    await pickExample(page, "ma");
    expect((await page.evaluate(() => window.__resin.result()))?.error).toBeNull();
  });

  it("reports figures: bench10 over 100k bars, optimize throughput (pool vs one worker)", async () => {
    const bench = readFileSync(join(ROOT, "bench", "bench10.pine"), "utf8");
    await page.evaluate((src) => {
      window.__resin.setSource(src);
      window.__resin.useGeneratedData(100_000);
    }, bench);
    const timings: number[] = [];
    for (let k = 0; k < 3; k++) {
      const n = await runs(page);
      const t0 = Date.now();
      await page.click("#run");
      await waitForRuns(page, n + 1, 120_000);
      const wall = Date.now() - t0;
      const t = await page.evaluate(() => window.__resin.lastTiming());
      expect(
        await page.evaluate(() => window.__resin.result()?.count),
        `status: ${await page.textContent("#status")}`,
      ).toBe(100_000);
      timings.push(t!.totalMs);
      console.log(
        `[figure] bench10 x 100k bars, run ${k + 1}: click-to-drawn ${Math.round(t!.totalMs)} ms (engine ${Math.round(t!.engineMs)} ms, wall ${wall} ms) — goal < 1500 ms`,
      );
    }
    const result = await page.evaluate(() => window.__resin.result());
    expect(result?.error).toBeNull();
    await screenshot(page, "07-bench10-100k");

    await page.selectOption("#data", "btc-1d");
    await waitForRuns(page, (await runs(page)) + 1);
    await pickExample(page, "ma-cross");
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const pool = Math.max(2, cores);
    // the pool (page loop, trials pipelined over `pool` workers) returns exactly the study run one
    // trial after another inside one worker: the app's default settings (20 trials: TPE, holdout) and
    // random draws in-sample
    for (const opts of [
      { sampler: "auto", validation: { mode: "holdout" } },
      { sampler: "random", validation: { mode: "in-sample" } },
    ]) {
      const one = await page.evaluate((o) => window.__resin.benchOptimize(1, 20, "auto", o), opts);
      const many = await page.evaluate(([n, o]) => window.__resin.benchOptimize(n, 20, "pool", o), [
        pool,
        opts,
      ] as const);
      expect(one.trials).toBe(20);
      expect(one.bestIndex, JSON.stringify(opts)).not.toBeNull();
      expect(many.bestIndex, JSON.stringify(opts)).toBe(one.bestIndex);
      expect(many.bestParams).toEqual(one.bestParams);
      expect(many.digest).toBe(one.digest);
    }

    // what the pool can win depends on the CPU the browser really gets: the same busy loop alone and
    // in `pool` workers at once, and the per-run time inside the workers with 1 and with `pool`
    const par = await page.evaluate((c) => window.__resin.benchParallelism(c), pool);
    const runs1 = await page.evaluate(() => window.__resin.benchRuns(1, 12));
    const runsN = await page.evaluate((c) => window.__resin.benchRuns(c, 12), pool);
    console.log(
      `[figure] parallel CPU available to the page: ${par.effectiveCores.toFixed(2)} of ${pool} workers' worth (busy loop ${Math.round(par.oneMs)} ms alone, ${Math.round(par.manyMs)} ms in ${pool} workers at once; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores); ` +
        `MA cross run inside a worker: ${runs1.workerMsAvg.toFixed(0)} ms with 1 worker busy, ${runsN.workerMsAvg.toFixed(0)} ms with ${pool} busy (${runs1.perSecond.toFixed(1)} vs ${runsN.perSecond.toFixed(1)} runs/s)`,
    );
    // steady state, as in the app (its workers stay up between studies): each engine warmed by one
    // study first; then three interleaved rounds, medians reported (one round varies two-fold on a
    // shared machine), with the browser's CPU ms per trial from /proc, which contention does not skew
    type Round = {
      perSecond: number;
      trials: number;
      errors: number;
      progressCalls: number;
      cpuMsPerTrial: number | null;
      pageMsPerTrial: number | null;
    };
    const paths = { one: [1, "auto"], onePool: [1, "pool"], pool: [pool, "pool"] } as const;
    const rounds: Record<keyof typeof paths, Round[]> = { one: [], onePool: [], pool: [] };
    const study = async (key: keyof typeof paths, n: number): Promise<Round> => {
      const before = sampleBrowserCpu();
      const r = await page.evaluate(([w, p, t]) => window.__resin.benchOptimize(w, t, p, { keep: true }), [
        ...paths[key],
        n,
      ] as const);
      const cpu = cpuBetween(before, sampleBrowserCpu());
      return {
        ...r,
        cpuMsPerTrial: cpu ? cpu.totalMs / r.trials : null,
        pageMsPerTrial: cpu ? cpu.pageMainMs / r.trials : null,
      };
    };
    for (const key of Object.keys(paths) as (keyof typeof paths)[]) await study(key, 24);
    for (let k = 0; k < 3; k++)
      for (const key of Object.keys(paths) as (keyof typeof paths)[]) rounds[key].push(await study(key, 48));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const fig = (key: keyof typeof rounds) => {
      const rs = rounds[key];
      const cpu = rs.every((r) => r.cpuMsPerTrial !== null)
        ? `, browser CPU ${median(rs.map((r) => r.cpuMsPerTrial!)).toFixed(1)} ms/trial (page thread ${median(rs.map((r) => r.pageMsPerTrial!)).toFixed(2)})`
        : "";
      return `${median(rs.map((r) => r.perSecond)).toFixed(1)} trials/s (${rs.map((r) => r.perSecond.toFixed(1)).join(", ")}${cpu})`;
    };
    const errors = Object.values(rounds)
      .flat()
      .reduce((a, r) => a + r.errors, 0);
    console.log(
      `[figure] optimize throughput (MA cross, 2,000 bars, in-sample, random, 48 trials, warm workers, median of 3 interleaved rounds): study inside 1 worker ${fig("one")}; ` +
        `page loop over a 1-worker pool ${fig("onePool")}; page loop over a pool of ${pool} ${fig("pool")}; pool of ${pool} / 1 worker = ` +
        `${(median(rounds.pool.map((r) => r.perSecond)) / median(rounds.one.map((r) => r.perSecond))).toFixed(2)}x (${errors} trial errors)`,
    );
    for (const r of rounds.one) {
      expect(r.trials).toBe(48);
      expect(r.progressCalls).toBe(48); // per-trial progress through the Comlink proxy
    }
    for (const r of [...rounds.onePool, ...rounds.pool]) expect(r.trials).toBe(48);
    expect(pageErrors).toEqual([]);
  });
});
