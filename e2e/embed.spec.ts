// Embedding (issue 19 item 7): the packed package (`npm pack`) unpacked into a temporary site's
// node_modules, a separate minimal page that imports `resin/web` (resolved by Node through the
// package's "exports", mapped for the browser with an import map) and embeds <resin-chart>, served by
// a small static server on 127.0.0.1. Checks: the chart draws the script's plots, the result and error
// events fire, createEngine() runs and optimizes through the worker pool with transferred columns.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import * as tar from "tar";
import { ROOT, launchBrowser, makeCsv, screenshot } from "./harness.js";

const run = promisify(execFile);

const STRATEGY = `//@version=6
strategy("Embedded MA cross", overlay=true)
fast = ta.sma(close, input.int(10, "Fast", minval=2, maxval=30))
slow = ta.sma(close, input.int(30, "Slow", minval=10, maxval=80))
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
plot(fast, "Fast", color.orange)
plot(slow, "Slow", color.blue)
`;

// The page a dashboard author writes (docs/embedding.md has the same shape).
const PAGE = (importMap: string) => `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<title>My dashboard</title>
<script type="importmap">${importMap}</script>
<style>body { margin: 0; font: 14px sans-serif; } resin-chart { height: 420px; }</style>
</head>
<body>
<h1>My dashboard</h1>
<resin-chart id="ok" data="/bars.csv" theme="dark" timezone="America/New_York">
<script type="text/x-pine">
${STRATEGY}</script>
</resin-chart>
<resin-chart id="bad" data="/bars.csv" script='//@version=6
indicator("broken")
plot(nosuchthing)' style="height: 160px"></resin-chart>
<script type="module">
import { createEngine, parseBars } from "resin/web";
window.seen = { results: [], errors: [] };
for (const el of document.querySelectorAll("resin-chart")) {
  el.addEventListener("resin-result", (e) => seen.results.push({ id: el.id, bars: e.detail.result.count,
    plots: Object.keys(e.detail.result.plot_meta), trades: e.detail.result.strategy?.trades.length ?? null }));
  el.addEventListener("resin-error", (e) => seen.errors.push({ id: el.id, code: e.detail.code, message: e.detail.message }));
}
window.engineCheck = async () => {
  const bars = parseBars(await (await fetch("/bars.csv")).text());
  const engine = createEngine({ workers: 1 });
  const script = document.querySelector("#ok script").textContent;
  const result = await engine.run(script, bars, { inputs: { Fast: 5 } });
  const study = await engine.optimize(script, bars, {
    space: { params: [{ name: "Fast", kind: "int", min: 4, max: 12, step: 4 }] },
    n_trials: 3, sampler: "grid", validation: { mode: "in-sample" }, min_trades: 1,
  });
  engine.terminate();
  return { error: result.error ?? null, fastIsColumn: result.series.Fast instanceof Float64Array,
    fastLen: result.series.Fast.length, trades: result.strategy.trades.length, trials: study.trials.length };
};
</script>
</body>
</html>
`;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".csv": "text/csv",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

/** A static file server for `root` on 127.0.0.1 (the embedding page's own host, not resin's). */
function serveStatic(root: string): Promise<{ url: string; server: HttpServer }> {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    const file = path.endsWith("/") ? join(path, "index.html") : path;
    if (relative(root, file).startsWith("..") || !existsSync(file) || !statSync(file).isFile()) {
      missing.push(req.url ?? "");
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      resolve({ url: `http://127.0.0.1:${port}`, server });
    }),
  );
}

let tmp: string;
let site: { url: string; server: HttpServer };
let browser: Browser;
let page: Page;
let packedFiles: string[] = [];
let resolved = "";
const pageErrors: string[] = [];
/** Paths the page asked for that the site does not have (a missing worker or asset shows here). */
const missing: string[] = [];

beforeAll(async () => {
  const entry = join(ROOT, "dist-embed", "resin-web.js");
  if (!existsSync(entry)) throw new Error("e2e/embed needs dist-embed/: run `npm run build:embed` first");
  tmp = mkdtempSync(join(tmpdir(), "resin-embed-"));
  // the package as it would be published (scripts skipped: the builds are already there)
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], {
    cwd: ROOT,
    maxBuffer: 64 << 20,
  });
  const info = JSON.parse(stdout)[0] as { filename: string; files: { path: string }[] };
  packedFiles = info.files.map((f) => f.path);
  const pkgDir = join(tmp, "site", "node_modules", "resin");
  mkdirSync(pkgDir, { recursive: true });
  await tar.x({ file: join(tmp, info.filename), cwd: pkgDir, strip: 1 });
  // Node resolves the bare specifier through the unpacked package's "exports", as a bundler would
  const r = await run(
    process.execPath,
    ["--input-type=module", "-e", 'console.log(import.meta.resolve("resin/web"))'],
    {
      cwd: join(tmp, "site"),
    },
  );
  resolved = r.stdout.trim();
  const rel = relative(join(tmp, "site"), new URL(resolved).pathname);
  writeFileSync(join(tmp, "site", "bars.csv"), makeCsv(600));
  writeFileSync(join(tmp, "site", "index.html"), PAGE(JSON.stringify({ imports: { "resin/web": `/${rel}` } })));
  site = await serveStatic(join(tmp, "site"));
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.goto(`${site.url}/`);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => site?.server.close(r));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("resin/web embedded in a page of its own (issue 19, item 7)", () => {
  it("packs the entry, its worker and types; Node resolves resin/web to the packed module", () => {
    expect(packedFiles).toContain("dist-embed/resin-web.js");
    expect(packedFiles.some((f) => /^dist-embed\/assets\/runtime\.worker-.*\.js$/.test(f))).toBe(true);
    expect(packedFiles).toContain("dist-embed/types/web/src/embed/index.d.ts");
    expect(resolved).toMatch(/node_modules\/resin\/dist-embed\/resin-web\.js$/);
  });

  it("a TypeScript page type-checks against the packed declarations (bundler resolution through exports)", async () => {
    const dir = join(tmp, "site");
    writeFileSync(
      join(dir, "consumer.ts"),
      `import { createEngine, type PackedRunResult, type ResinChartElement } from "resin/web";
const engine = createEngine({ workers: 2 });
const run: Promise<PackedRunResult> = engine.run('//@version=6\\nindicator("x")\\nplot(close)', [
  { time: 0, open: 1, high: 1, low: 1, close: 1 },
]);
const chart: ResinChartElement = document.createElement("resin-chart");
chart.script = "//@version=6";
export const column: Promise<Float64Array | readonly unknown[] | undefined> = run.then((r) => r.series.x);
// @ts-expect-error the engine is typed (an any would make this line an unused expect-error)
export const wrong: number = engine;
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "bundler",
          lib: ["ES2022", "DOM"],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const out = await run(process.execPath, [tsc, "-p", dir]).then(
      () => "",
      (e: { stdout?: string }) => e.stdout ?? String(e),
    );
    expect(out).toBe("");
  });

  it("<resin-chart> draws the script's chart and fires resin-result; a broken script fires resin-error", async () => {
    await page.waitForFunction(
      () => (window as any).seen.results.length >= 1 && (window as any).seen.errors.length >= 1,
      null,
      {
        timeout: 90_000,
      },
    );
    const seen = await page.evaluate(() => (window as any).seen);
    expect(seen.results).toHaveLength(1);
    expect(seen.results[0]).toMatchObject({ id: "ok", bars: 600, plots: ["Fast", "Slow"] });
    expect(seen.results[0].trades).toBeGreaterThan(0);
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0].id).toBe("bad");
    expect(seen.errors[0].message).toMatch(/nosuchthing/);
    expect(seen.errors[0].message).toMatch(/line 3/);
    // really drawn: the chart's canvases are in the shadow root, the error box shows on the broken one
    const drawn = await page.evaluate(() => {
      const ok = document.querySelector("#ok")!.shadowRoot!;
      const bad = document.querySelector("#bad")!.shadowRoot!;
      return {
        canvases: ok.querySelectorAll("canvas").length,
        okError: (ok.querySelector(".error") as HTMLElement).hidden,
        badError: (bad.querySelector(".error") as HTMLElement).textContent,
        height: (document.querySelector("#ok") as HTMLElement).getBoundingClientRect().height,
      };
    });
    expect(drawn.canvases).toBeGreaterThan(2);
    expect(drawn.okError).toBe(true);
    expect(drawn.badError).toMatch(/nosuchthing/);
    expect(drawn.height).toBe(420);
    // the dark theme painted: the price pane's background (its top-left pixel) is dark
    const bg = await page.evaluate(() => {
      const canvases = [...document.querySelector("#ok")!.shadowRoot!.querySelectorAll("canvas")];
      const pane = canvases.sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
      return [...pane.getContext("2d")!.getImageData(2, 2, 1, 1).data.slice(0, 3)];
    });
    expect(Math.max(...bg)).toBeLessThan(60);
    await screenshot(page, "embed-1366x768");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(300);
    await screenshot(page, "embed-1920x1080");
    expect(missing).toEqual([]);
    expect(pageErrors.filter((e) => !/nosuchthing/.test(e))).toEqual([]);
  });

  it("changing an attribute re-runs: theme switches in place, a new script draws its plots", async () => {
    const before = await page.evaluate(() => (window as any).seen.results.length);
    await page.evaluate(() => {
      const el = document.querySelector("#bad")!;
      el.setAttribute("theme", "dark");
      el.setAttribute("timezone", "Asia/Tokyo");
      el.setAttribute(
        "script",
        '//@version=6\nindicator("fixed")\nplot(ta.rsi(close, 14), "RSI")\nplot(syminfo.timezone == "Asia/Tokyo" ? 1 : 0, "tokyo")',
      );
    });
    await page.waitForFunction((n) => (window as any).seen.results.length > n, before, { timeout: 60_000 });
    const last = await page.evaluate(() => (window as any).seen.results.at(-1));
    expect(last).toMatchObject({ id: "bad", bars: 600, plots: ["RSI", "tokyo"], trades: null });
    // the timezone attribute is the script's syminfo.timezone
    expect(await page.evaluate(() => (document.querySelector("#bad") as any).result.series.tokyo.at(-1))).toBe(1);
    expect(
      await page.evaluate(
        () => (document.querySelector("#bad")!.shadowRoot!.querySelector(".error") as HTMLElement).hidden,
      ),
    ).toBe(true);
  });

  it("the data property takes bars as rows; the chart runs again on them", async () => {
    const before = await page.evaluate(() => (window as any).seen.results.length);
    await page.evaluate(() => {
      const rows = Array.from({ length: 120 }, (_, i) => {
        const c = 100 + Math.sin(i / 7) * 5;
        return { time: Date.UTC(2024, 0, 1) + i * 86_400_000, open: c, high: c + 1, low: c - 1, close: c };
      });
      (document.querySelector("#bad") as any).data = rows;
    });
    await page.waitForFunction((n) => (window as any).seen.results.length > n, before, { timeout: 60_000 });
    expect(await page.evaluate(() => (window as any).seen.results.at(-1))).toMatchObject({ id: "bad", bars: 120 });
    const column = await page.evaluate(() => (document.querySelector("#bad") as any).result.series.RSI.length);
    expect(column).toBe(120);
  });

  it("a page bundled by Vite (production build) from the installed package draws the chart too", async () => {
    const dir = join(tmp, "site", "bundled");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<resin-chart id="c" data="/bars.csv" style="height: 300px" script='//@version=6
indicator("bundled")
plot(ta.sma(close, 20), "SMA")'></resin-chart>
<script type="module" src="./main.js"></script>`,
    );
    writeFileSync(
      join(dir, "main.js"),
      `import "resin/web";
window.seen = [];
const c = document.getElementById("c");
c.addEventListener("resin-result", (e) => seen.push(e.detail.result.count));
c.addEventListener("resin-error", (e) => seen.push(e.detail.message));
`,
    );
    const { build } = await import("vite");
    await build({ root: dir, base: "./", logLevel: "warn", configFile: false, build: { outDir: join(dir, "dist") } });
    const p = await page.context().newPage();
    const errors: string[] = [];
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(`${site.url}/bundled/dist/`);
    await p.waitForFunction(() => (window as any).seen.length > 0, null, { timeout: 60_000 });
    expect(await p.evaluate(() => (window as any).seen)).toEqual([600]);
    expect(errors).toEqual([]);
    await p.close();
  });

  it("createEngine() runs and optimizes in workers; plot columns arrive as transferred Float64Arrays", async () => {
    const r = await page.evaluate(() => (window as any).engineCheck());
    expect(r).toEqual({ error: null, fastIsColumn: true, fastLen: 600, trades: expect.any(Number), trials: 3 });
    expect(r.trades).toBeGreaterThan(0);
    expect(pageErrors.filter((e) => !/nosuchthing/.test(e))).toEqual([]);
  });
});
