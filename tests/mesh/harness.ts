// Shared by the mesh tests: the trade-service bundle (src/ops/edge-build.ts's buildMeshWorker, as
// `resinctl deploy` makes it), Miniflare options for it (real D1 and Durable Object), a JSON caller, and a mock
// exchange on 127.0.0.1 that records every request.

import { createServer, type IncomingMessage, type Server } from "node:http";
import { createHmac } from "node:crypto";
import type { Miniflare, WorkerOptions } from "miniflare";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildMeshWorker } from "../../src/ops/edge-build.js";

export const INTERNAL_KEY = "internal-key-abc";

let bundled: Promise<{ script: string; contents: string }> | null = null;

/**
 * Bundles src/mesh/worker.ts once per test file (its own directory per process: files run in parallel).
 * Miniflare gets the bundle's text, so the directory goes once it is read (one was left per test
 * process before, hundreds under build/ after a few runs).
 */
export function bundleMesh(): Promise<{ script: string; contents: string }> {
  bundled ??= (async () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const dir = join(root, "build", `mesh-test-${process.pid}`);
    const bundle = await buildMeshWorker(dir);
    const contents = await readFile(bundle.script, "utf8");
    await rm(dir, { recursive: true, force: true });
    return { script: bundle.script, contents };
  })();
  return bundled;
}

export async function meshWorker(bindings: Record<string, string> = {}, name = "trade"): Promise<WorkerOptions> {
  const bundle = await bundleMesh();
  return {
    name,
    modules: [{ type: "ESModule", path: bundle.script, contents: bundle.contents }],
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    d1Databases: ["MESH_DB"],
    durableObjects: { MESH_CONTROL: "MeshControl" },
    bindings: { INTERNAL_KEY_BINDING: INTERNAL_KEY, ...bindings },
  } as WorkerOptions;
}

export interface Called {
  status: number;
  json: any;
}

export async function callJson(
  mf: Miniflare,
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; internal?: boolean; worker?: string } = {},
): Promise<Called> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(init.headers ?? {}) };
  if (init.internal !== false && !("x-internal-key" in headers) && init.json !== undefined && path === "/signal") {
    headers["x-internal-key"] = INTERNAL_KEY;
  }
  if (init.internal === true) headers["x-internal-key"] = INTERNAL_KEY;
  const res = await mf.dispatchFetch(`http://trade.local${path}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
  signatureValid: boolean;
}

/**
 * A Binance-shaped mock exchange: POST /api/v3/order fills a market order at `price` (deduplicating
 * newClientOrderId as the real one does), GET /api/v3/order finds by origClientOrderId (-2013
 * otherwise). Requests whose signature does not verify with the secret of their API key get 401.
 */
export async function mockExchange(
  keys: Record<string, string>,
  price = 100,
): Promise<{
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const orders = new Map<string, Record<string, unknown>>();
  let nextId = 1;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const apiKey = req.headers["x-mbx-apikey"] as string | undefined;
    const raw = (req.url ?? "").split("?")[1] ?? "";
    const unsigned = raw.replace(/&signature=[0-9a-f]+$/, "");
    const secret = apiKey ? keys[apiKey] : undefined;
    const expected = secret ? createHmac("sha256", secret).update(unsigned).digest("hex") : "";
    const signatureValid = !!secret && url.searchParams.get("signature") === expected;
    requests.push({ method: req.method ?? "", path: url.pathname, query: url.searchParams, apiKey, signatureValid });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!signatureValid) return send(401, { code: -2015, msg: "Invalid API-key, IP, or permissions for action." });
    const q = url.searchParams;
    if (url.pathname === "/api/v3/order" && req.method === "POST") {
      const cid = q.get("newClientOrderId") as string;
      const existing = orders.get(cid);
      if (existing) return send(400, { code: -2010, msg: "Duplicate order sent." });
      const qty = Number(q.get("quantity"));
      const order = {
        orderId: nextId++,
        clientOrderId: cid,
        symbol: q.get("symbol"),
        side: q.get("side"),
        executedQty: String(qty),
        cummulativeQuoteQty: String(qty * price),
        status: "FILLED",
        fills: [{ price: String(price), qty: String(qty), commission: "0.01" }],
      };
      orders.set(cid, order);
      return send(200, order);
    }
    if (url.pathname === "/api/v3/order" && req.method === "GET") {
      const order = orders.get(q.get("origClientOrderId") ?? "");
      return order ? send(200, order) : send(400, { code: -2013, msg: "Order does not exist." });
    }
    send(404, { code: -1, msg: "not found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
