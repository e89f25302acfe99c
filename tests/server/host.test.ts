// The Node host around the app: the chart app's static files with --app (API routes first,
// index.html fallback, no path traversal) and a clear error when the app is not built.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/node/host.js";
import { fakeEngine, start } from "./helpers.js";

const web = mkdtempSync(join(tmpdir(), "resin-web-"));
mkdirSync(join(web, "assets"));
writeFileSync(join(web, "index.html"), "<!doctype html><title>resin</title>");
writeFileSync(join(web, "assets", "app-1234.js"), "console.log('app')");
writeFileSync(join(web, "assets", "kernels.wasm"), new Uint8Array([0, 97, 115, 109]));

let server: RunningServer;
beforeAll(async () => {
  server = await start({ engine: fakeEngine(), app: true, webRoot: web });
});
afterAll(() => server.close());

const get = (path: string) => fetch(new URL(path, server.url));

describe("resin serve --app", () => {
  it("serves index.html at / and assets with their content types", async () => {
    const root = await get("/");
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toMatch(/text\/html/);
    expect(await root.text()).toContain("<title>resin</title>");
    const js = await get("/assets/app-1234.js");
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(js.headers.get("cache-control")).toMatch(/immutable/);
    expect((await get("/assets/kernels.wasm")).headers.get("content-type")).toBe("application/wasm");
  });

  it("API routes take precedence; unknown non-API GET paths get index.html", async () => {
    expect((await get("/health")).headers.get("content-type")).toMatch(/json/);
    expect((await get("/run")).status).toBe(405);
    const deep = await get("/optimize-panel/settings");
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain("<title>resin</title>");
    const apiMiss = await get("/run/nothing");
    expect(apiMiss.status).toBe(404);
    expect(await apiMiss.json()).toMatchObject({ code: "NOT_FOUND" });
    const post = await fetch(new URL("/whatever", server.url), { method: "POST", body: "{}" });
    expect(post.status).toBe(404);
  });

  it("never serves files outside the web root", async () => {
    for (const p of ["/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "/assets/../../package.json"]) {
      const res = await get(p);
      const text = await res.text();
      expect(text).not.toContain("root:");
      expect(text).not.toContain('"name"');
    }
  });

  it("refuses to start when the chart app is not built", async () => {
    await expect(start({ engine: fakeEngine(), app: true, webRoot: join(web, "missing") })).rejects.toThrow(
      /chart app not built/,
    );
  });
});
