// The Node host's signal of a client gone away (src/server/node/client-signal.ts connectionSignal):
// aborted when the connection closes before the answer was written, not once the answer is out, and
// the request's body still read from the socket; the host's routes take it instead of the Request's.

import { type AddressInfo, connect } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { socketBodyBytes } from "../../src/server/node/body.js";
import { connectionSignal } from "../../src/server/node/client-signal.js";
import { clientSignal } from "../../src/server/route-context.js";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** A bare app whose /wait route reads the body, then answers once its signal aborts (or after `ms`). */
async function server(seen: AbortSignal[]): Promise<number> {
  const app = new Hono();
  app.post("/wait", async (c) => {
    const read = socketBodyBytes(c);
    const bytes = read ? await read : new Uint8Array(0);
    const signal = connectionSignal(c);
    if (!signal) return c.text("no signal", 500);
    seen.push(signal);
    const ms = Number(c.req.query("ms") ?? "0");
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      });
    });
    return c.text(`${bytes.length} ${signal.aborted}`);
  });
  const s = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  close = () => new Promise<void>((r) => s.close(() => r()));
  return (s.address() as AddressInfo).port;
}

const until = async (f: () => boolean, ms = 5000): Promise<void> => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("connectionSignal", () => {
  it("aborts when the client closes the connection before the answer", async () => {
    const seen: AbortSignal[] = [];
    const port = await server(seen);
    const body = '{"a":1}';
    const sock = connect(port, "127.0.0.1");
    await new Promise<void>((r) => sock.once("connect", () => r()));
    sock.write(
      `POST /wait?ms=20000 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await until(() => seen.length === 1);
    expect(seen[0]!.aborted).toBe(false);
    sock.destroy();
    await until(() => seen[0]!.aborted);
    expect(String(seen[0]!.reason)).toMatch(/closed/);
  });

  it("does not abort once the answer is written, and the body is still read from the socket", async () => {
    const seen: AbortSignal[] = [];
    const port = await server(seen);
    const res = await fetch(`http://127.0.0.1:${port}/wait?ms=5`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(100_000),
    });
    expect(await res.text()).toBe("100000 false");
    await new Promise((r) => setTimeout(r, 50));
    expect(seen[0]!.aborted).toBe(false);
  });

  it("gives null without Node's request and response, and the routes then take the Request's signal", async () => {
    const app = new Hono();
    let got: [AbortSignal | null, boolean] | null = null;
    app.get("/", (c) => {
      got = [connectionSignal(c), clientSignal({ clientGone: connectionSignal }, c) === c.req.raw.signal];
      return c.text("ok");
    });
    await app.request("/");
    expect(got).toEqual([null, true]);
  });
});
