// Shared e2e plumbing: start the real server (`node bin/resin.js serve --app --port 0`) on the built
// dist/ and dist-web/, launch Chromium, and save screenshots under e2e/artifacts/.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ARTIFACTS = join(ROOT, "e2e", "artifacts");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface Server {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Fails early with the command to run when the builds the tests serve are missing. */
export function assertBuilt(): void {
  const missing = [join(ROOT, "dist", "cli", "index.js"), join(ROOT, "dist-web", "index.html")].filter(
    (f) => !existsSync(f),
  );
  if (missing.length)
    throw new Error(`e2e needs the builds (${missing.join(", ")}): run \`npm run build:lib && npx vite build\` first`);
}

/** Starts `resin serve --app --port 0` and resolves with its URL once it prints the chosen port. */
export function startServer(timeoutMs = 30_000): Promise<Server> {
  const proc = spawn(process.execPath, [join(ROOT, "bin", "resin.js"), "serve", "--app", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, SVC_CLI_SILENT: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGTERM");
      setTimeout(() => proc.kill("SIGKILL"), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`resin serve printed no port within ${timeoutMs} ms; output:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /https?:\/\/[\w.\-[\]:]*?:(\d+)/.exec(out) ?? /port[^\d]{0,3}(\d{2,5})/i.exec(out);
      if (m && Number(m[1]) > 0) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, proc, output: () => out, stop });
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`resin serve exited with code ${code}; output:\n${out}`));
    });
  });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Waits until the app has finished `n` runs in total (window.__resin.runCount()). */
export async function waitForRuns(page: Page, n: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction((k) => window.__resin?.runCount() >= k, n, { timeout });
}

/** A small CSV of `n` hourly bars (a gentle sine so indicators move). */
export function makeCsv(n: number): string {
  const lines = ["time,open,high,low,close,volume"];
  let prev = 50;
  for (let i = 0; i < n; i++) {
    const close = Math.round((50 + 8 * Math.sin(i / 9) + i * 0.02) * 100) / 100;
    const open = prev;
    const high = Math.max(open, close) + 0.4;
    const low = Math.min(open, close) - 0.4;
    lines.push(
      `${Date.UTC(2024, 0, 1) + i * 3_600_000},${open},${high.toFixed(2)},${low.toFixed(2)},${close},${1000 + i}`,
    );
    prev = close;
  }
  return lines.join("\n") + "\n";
}

export interface EdgeServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * The edge worker in real workerd (Miniflare 3) on a local port: the same esbuild bundle and
 * CompiledWasm kernels as tests/edge, no API key, so the app can call it like a deployed worker.
 */
export async function startEdge(
  opts: {
    /** Worker vars (e.g. OUTBOUND_ALLOW_HOSTS for a receiver on 127.0.0.1). */
    bindings?: Record<string, string>;
    /** Bind RESIN_DB (D1): job state, locks and the outbox of alert deliveries. */
    d1?: boolean;
  } = {},
): Promise<EdgeServer> {
  const { Miniflare } = await import("miniflare");
  const { buildEdgeWorker, edgeModules } = await import("../src/ops/edge-build.js");
  const bundle = await buildEdgeWorker();
  const mf = new Miniflare({
    name: "resin",
    modules: (await edgeModules(bundle)) as never,
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["RESIN_KV"],
    r2Buckets: ["RESIN_BARS"],
    ...(opts.d1 ? { d1Databases: ["RESIN_DB"] } : {}),
    ...(opts.bindings ? { bindings: opts.bindings } : {}),
    host: "127.0.0.1",
    port: 0,
  });
  const url = (await mf.ready).toString().replace(/\/$/, "");
  return { url, stop: () => mf.dispose() };
}

/**
 * The app in a new page of `browser` at `viewport`, once it is ready and has drawn its first chart;
 * page errors go to `errors` when given.
 */
export async function openApp(
  server: Server,
  browser: Browser,
  viewport = { width: 1366, height: 768 },
  errors?: string[],
): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  if (errors) page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.__resin?.ready === true, null, { timeout: 60_000 });
  await waitForRuns(page, 1);
  return page;
}
