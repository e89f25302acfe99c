// The Node host reads a body's bytes from the socket (src/server/node/body.ts socketBodyBytes) instead of
// through the Request: decoded, the same text as the Request's text() (the BOM dropped, bad UTF-8
// replaced), only for bodies with a Content-Length that nothing has read yet, and the host's routes use it.

import { type AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { socketBodyBytes } from "../../src/server/node/body.js";
import type { RunningServer } from "../../src/server/node/host.js";
import { post, start } from "./helpers.js";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** A bare app that answers what socketBodyBytes read, decoded (or that it gave null and what text() read). */
async function echoServer(): Promise<string> {
  const app = new Hono();
  app.post("/echo", async (c) => {
    const read = socketBodyBytes(c);
    return c.json({ socket: read !== null, text: read ? new TextDecoder().decode(await read) : await c.req.text() });
  });
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  close = () => new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
}

const enc = new TextEncoder();
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe("socketBodyBytes", () => {
  it("reads the text the Request would: BOM dropped, bad bytes replaced, multi-byte characters across chunks", async () => {
    const url = await echoServer();
    const bodies = [
      enc.encode('{"a":"plain"}'),
      cat(new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode('{"a":"bom"}')),
      cat(enc.encode('{"a":"'), new Uint8Array([0xff, 0xc3, 0x28, 0xe2, 0x82]), enc.encode('"}')),
      enc.encode(`{"a":"${"é😀\u2028".repeat(40_000)}"}`),
      new Uint8Array(0),
    ];
    for (const body of bodies) {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      const got = (await res.json()) as { socket: boolean; text: string };
      expect(got.socket).toBe(true);
      expect(got.text).toBe(await new Response(body).text());
    }
  });

  it("leaves a body without Content-Length (chunked) to the Request", async () => {
    const url = await echoServer();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('{"a":'));
        c.enqueue(enc.encode("1}"));
        c.close();
      },
    });
    const res = await fetch(url, { method: "POST", body, duplex: "half" } as RequestInit);
    expect(await res.json()).toEqual({ socket: false, text: '{"a":1}' });
  });
});

describe("the Node host reads bodies from the socket", () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close(1);
    server = null;
  });

  it("answers a body with a BOM and a large body, and keeps the coded errors of empty, malformed and too large bodies", async () => {
    server = await start();
    const script = '//@version=6\nindicator("x")\nplot(close)\n';
    const data = [{ time: 1_700_000_000_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 1 }];
    const withBom = cat(new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode(JSON.stringify({ script, data })));
    const ok = await post(server.url, "/run", "", { body: withBom });
    expect(ok.status).toBe(200);
    expect(ok.json.count).toBe(1);
    expect((await post(server.url, "/run", "  ")).json.code).toBe("INVALID_BODY");
    expect((await post(server.url, "/run", '{"script":')).json.code).toBe("INVALID_BODY");
    // a body of many socket chunks, read whole (the body limit must not have opened the Request's stream)
    const large = await post(server.url, "/run", { script, data, pad: "y".repeat(3 * 1024 * 1024) });
    expect([large.status, large.json.code, large.json.fields]).toEqual([400, "UNKNOWN_FIELDS", ["pad"]]);
    const tooBig = await post(server.url, "/run", "x".repeat(6 * 1024 * 1024));
    expect([tooBig.status, tooBig.json.code]).toEqual([413, "BODY_TOO_LARGE"]);
  });
});
