// `resin serve` as a process (bin/resin.js from the built dist/): free port, port in use, SIGINT,
// worker threads, --app, hosted runner with graceful SIGTERM.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureDist, ROOT } from "./dist.js";
import { rampBars } from "../helpers/ramp-bars.js";

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill("SIGKILL");
});

function serve(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [join(ROOT, "bin", "resin.js"), "serve", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitFor(pred: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

function urlOf(p: Proc): string {
  const m = /resin serving on (http:\/\/\S+)/.exec(p.out()) ?? /"url":"(http:[^"]+)"/.exec(p.out());
  return m![1]!;
}

const JSON_TYPE = { "content-type": "application/json" };
const BARS = rampBars(100);
const PLOT = '//@version=6\nindicator("x")\nplot(close, "c")\n';
const HEAVY =
  '//@version=6\nindicator("h")\nvar float acc = 0.0\nfor i = 0 to 200000\n    acc += math.sqrt(i)\nplot(acc, "a")\n';

beforeAll(() => ensureDist(), 180_000);

describe("resin serve", () => {
  it("--port 0 picks a free port and prints it; runs use worker threads; SIGINT exits cleanly", async () => {
    const p = serve(["--port", "0"]);
    await waitFor(() => /resin serving on http:\/\/127\.0\.0\.1:\d+\/\n/.test(p.out()));
    const url = urlOf(p);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    expect((await (await fetch(new URL("/health", url))).json()).status).toBe("ok");
    const batch = await fetch(new URL("/run/batch", url), {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({
        runs: [
          { id: "a", script: PLOT },
          { id: "b", script: PLOT },
        ],
        data: BARS,
      }),
    });
    const body = await batch.json();
    expect(batch.status).toBe(200);
    expect(body.results.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      ["a", "success"],
      ["b", "success"],
    ]);
    expect(body.results[0].series.c).toEqual(BARS.map((b) => b.close));
    p.child.kill("SIGINT");
    expect(await p.exited).toBe(0);
  });

  it("a port in use is a clear error and exit 1; a bad --port is exit 2", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as { port: number }).port;
    const p = serve(["--port", String(port)]);
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
    blocker.close();
    const bad = serve(["--port", "http"]);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--port needs a number/);
  });

  it("--app serves the built chart app, or says it is not built", async () => {
    const p = serve(["--port", "0", "--app"]);
    if (existsSync(join(ROOT, "dist-web", "index.html"))) {
      await waitFor(() => /resin serving on/.test(p.out()));
      const res = await fetch(urlOf(p));
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      expect(await res.text()).toMatch(/<html|<!doctype/i);
      const health = await fetch(new URL("/health", urlOf(p)));
      expect(health.headers.get("content-type")).toMatch(/json/);
      expect((await health.json()).status).toBe("ok");
      p.child.kill("SIGINT");
      expect(await p.exited).toBe(0);
    } else {
      expect(await p.exited).toBe(1);
      expect(p.err()).toMatch(/chart app not built/);
    }
  });

  it("SVC_RUNNER=1: JSON log lines, SIGTERM finishes the in-flight run, then exits", async () => {
    const p = serve(["--port", "0"], { SVC_RUNNER: "1" });
    await waitFor(() => /"event":"listening"/.test(p.out()));
    const url = urlOf(p);
    const inflight = fetch(new URL("/run", url), {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ script: HEAVY, data: BARS, mode: "interpret" }),
    });
    // The heavy run takes seconds; SIGTERM lands while it is in flight.
    await new Promise((r) => setTimeout(r, 600));
    p.child.kill("SIGTERM");
    const res = await inflight;
    expect(res.status).toBe(200);
    expect((await res.json()).count).toBe(BARS.length);
    expect(await p.exited).toBe(0);
    const lines = p
      .out()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.event === "listening")).toMatchObject({ engine: "threads" });
    expect(lines.find((l) => l.event === "shutdown")).toMatchObject({ signal: "SIGTERM" });
    expect(lines.find((l) => l.path === "/run")).toMatchObject({ method: "POST", status: 200 });
  });
});
