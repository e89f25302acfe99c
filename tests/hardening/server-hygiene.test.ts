// HTTP hygiene of the Node host (issue 16.6) at the socket level: a body that never finishes is cut
// off after SVC_BODY_TIMEOUT_SECONDS, and connections past SVC_MAX_CONNECTIONS are refused. Raw
// sockets on 127.0.0.1; every wait is bounded.

import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/node/host.js";
import { fakeEngine, start } from "../server/helpers.js";

let server: RunningServer | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close(1);
  server = null;
});

function open(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), "127.0.0.1", () => resolve(s));
    s.on("error", reject);
    sockets.push(s);
  });
}

/** Resolves with what the server sent before closing the socket, or "still open" after `ms`. */
function closed(s: Socket, ms: number): Promise<string> {
  let got = "";
  s.on("data", (d) => (got += d));
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve("still open"), ms);
    s.on("close", () => {
      clearTimeout(t);
      resolve(got);
    });
  });
}

describe("Node host sockets", () => {
  it("a request body that stalls is cut off after the body timeout (408)", async () => {
    server = await start({ engine: fakeEngine(), env: { SVC_BODY_TIMEOUT_SECONDS: "1" } });
    const s = await open(server.url);
    s.write(
      'POST /run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"script":',
    );
    const answer = await closed(s, 15_000);
    expect(answer).not.toBe("still open");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  it("connections past the cap are closed at once; the others are served", async () => {
    server = await start({ engine: fakeEngine(), env: { SVC_MAX_CONNECTIONS: "2" } });
    const [a, b] = [await open(server.url), await open(server.url)];
    const extra = await open(server.url);
    expect(await closed(extra, 5_000)).toBe("");
    a.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(await closed(a, 5_000)).toMatch(/^HTTP\/1\.1 200[\s\S]*"status":"ok"/);
    b.destroy();
  }, 30_000);
});
