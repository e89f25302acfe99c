// Alert delivery from the evaluate worker under Miniflare (workerd, real D1/KV/R2) to a local
// receiver on 127.0.0.1 (allowed explicitly through OUTBOUND_ALLOW_HOSTS): exactly once across
// concurrent cron runs, retried after 500s without losing a bar, HMAC signatures, TradingView's body
// convention with placeholders filled, the outbound guard, the chat allowlist.

import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type WorkerOptions } from "miniflare";
import { buildEdgeWorker, edgeModules } from "../../src/ops/edge-build.js";

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const received: Received[] = [];
let failNext = 0;
let server: Server;
let base: string;
let mf: Miniflare;

// An alertcondition with placeholders (filled by the run) and an alert() whose message is JSON.
const ALERTING = `//@version=6
indicator("alerting")
alertcondition(close > open, "up", "up {{ticker}} close={{close}}")
alert('{"px": ' + str.tostring(close) + '}')
plot(close)
`;

function bars(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      time: 1_700_000_000_000 + i * 60_000,
      open: 100 + i,
      high: 102 + i,
      low: 99 + i,
      close: 101 + i,
      volume: 1,
    };
  });
}

async function edge(path: string, json?: unknown, method?: string) {
  const res = await mf.dispatchFetch(`http://edge.local${path}`, {
    method: method ?? (json === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function register(script: string, symbol: string, destinations: unknown[]) {
  await edge("/scripts", { id: script, source: ALERTING });
  const put = await edge(`/scripts/${script}/alerts`, { destinations }, "PUT");
  expect(put.status).toBe(200);
  await edge("/ingest", { symbol, timeframe: "1", bars: bars(0, 4) });
  const jobs = ((await edge("/cron/jobs")).json.jobs as { id: string }[]).filter((j) => j.id !== script);
  await edge("/cron/jobs", { jobs: [...jobs, { id: script, script_id: script, symbol, timeframe: "1" }] }, "PUT");
}

const at = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] as string;
      if (path === "/redirect-private") {
        res.writeHead(302, { location: "http://10.0.0.1/steal" });
        return res.end();
      }
      if (path === "/redirect-ok") {
        res.writeHead(307, { location: "/after-redirect" });
        return res.end();
      }
      received.push({ path, headers: req.headers, body });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500);
        return res.end("busy");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const bundle = await buildEdgeWorker();
  mf = new Miniflare({
    name: "resin",
    modules: (await edgeModules(bundle)) as WorkerOptions["modules"],
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["RESIN_KV"],
    r2Buckets: ["RESIN_BARS"],
    d1Databases: ["RESIN_DB"],
    bindings: {
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      OUTBOX_RETRY_BASE_MS: "0",
      CHAT_ALLOWLIST: "42",
      TELEGRAM_BOT_TOKEN: "tok",
      TELEGRAM_API_BASE: `${base}/tg`,
    },
  } as WorkerOptions);
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe("alert destinations", () => {
  it("the outbound guard refuses private, loopback, link-local and non-HTTP(S) URLs unless allowed", async () => {
    await edge("/scripts", { id: "guard", source: ALERTING });
    for (const url of [
      "http://10.1.2.3/x",
      "http://127.0.0.2/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[::ffff:10.0.0.1]/x",
      "http://192.168.1.1/x",
      "http://localhost/x",
      "file:///etc/passwd",
      "ftp://example.com/x",
      "not a url",
    ]) {
      const res = await edge("/scripts/guard/alerts", { destinations: [{ type: "webhook", url }] }, "PUT");
      expect([res.status, res.json.code, res.json.field], url).toEqual([400, "URL_REFUSED", "destinations[0].url"]);
    }
    // 127.0.0.1 is allowed explicitly here; a public host passes the guard.
    const ok = await edge(
      "/scripts/guard/alerts",
      {
        destinations: [
          { type: "webhook", url: `${base}/hook` },
          { id: "pub", type: "webhook", url: "https://example.com/hook", secret: "s3cret-s3cret" },
        ],
      },
      "PUT",
    );
    expect(ok.json.destinations).toEqual([
      { id: "d0", type: "webhook", url: `${base}/hook`, signed: false },
      { id: "pub", type: "webhook", url: "https://example.com/hook", signed: true },
    ]);
  });

  it("chat destinations must be on CHAT_ALLOWLIST", async () => {
    await edge("/scripts", { id: "chatty", source: ALERTING });
    const refused = await edge("/scripts/chatty/alerts", { destinations: [{ type: "chat", chat_id: 7 }] }, "PUT");
    expect([refused.status, refused.json.code]).toEqual([400, "CHAT_NOT_ALLOWED"]);
    expect(
      (await edge("/scripts/chatty/alerts", { destinations: [{ type: "chat", chat_id: 42 }] }, "PUT")).status,
    ).toBe(200);
  });
});

describe("alert delivery on bar-close jobs", () => {
  it("exactly once across three concurrent runs; placeholders filled; JSON messages sent as JSON; signed", async () => {
    await register("once", "ONCE", [{ type: "webhook", url: `${base}/once`, secret: "hook-secret-1" }]);
    const runs = await Promise.all([1, 2, 3].map(() => edge("/cron/run", { job_id: "once" })));
    expect(runs.map((r) => r.json.results[0].status).filter((s) => s === "ran")).toHaveLength(1);
    const got = at("/once");
    // The last bar's two firings, each once.
    expect(got).toHaveLength(2);
    const text = got.find((r) => String(r.headers["content-type"]).startsWith("text/plain"))!;
    expect(text.body).toBe("up ONCE close=104");
    const json = got.find((r) => r.headers["content-type"] === "application/json")!;
    expect(JSON.parse(json.body)).toEqual({ px: 104 });
    for (const r of got) {
      const ts = r.headers["x-resin-timestamp"] as string;
      const expected = createHmac("sha256", "hook-secret-1").update(`${ts}.${r.body}`).digest("hex");
      expect(r.headers["x-resin-signature"]).toBe(`sha256=${expected}`);
      expect(r.headers["x-resin-delivery"]).toMatch(/^al:once:once:\d+:\d:d0$/);
    }
    // A new bar: only its firings go out.
    await edge("/ingest", { symbol: "ONCE", timeframe: "1", bars: bars(4, 1) });
    await Promise.all([edge("/cron/run", {}), edge("/cron/run", { job_id: "once" })]);
    expect(at("/once")).toHaveLength(4);
    expect(
      at("/once")
        .slice(2)
        .some((r) => r.body === "up ONCE close=105"),
    ).toBe(true);
    const history = (await edge("/scripts/once/alerts")).json;
    expect(history.destinations).toEqual([{ id: "d0", type: "webhook", url: `${base}/once`, signed: true }]);
    expect(history.deliveries).toHaveLength(4);
    expect(history.deliveries.every((d: any) => d.status === "delivered")).toBe(true);
  }, 60_000);

  it("retries after 500s: the failed bar's alerts are not lost", async () => {
    await register("retry", "RETRY", [{ type: "webhook", url: `${base}/retry` }]);
    failNext = 1;
    const first = (await edge("/cron/run", { job_id: "retry" })).json.results[0];
    expect(first).toMatchObject({ status: "ran", alerts: 2, alerts_queued: 2, alerts_delivered: 0, alerts_pending: 2 });
    const depth = (await edge("/outbox")).json.depth;
    expect(depth.find((d: any) => d.channel === "alert" && d.status === "pending").count).toBeGreaterThanOrEqual(2);
    failNext = 1;
    // Next invocation: the first retry fails again, the one after delivers both in order.
    await edge("/cron/run", { job_id: "retry" });
    const third = (await edge("/cron/run", { job_id: "retry" })).json.results[0];
    expect(third).toMatchObject({ alerts_pending: 0 });
    const bodies = at("/retry").map((r) => r.body);
    expect(bodies).toEqual(["up RETRY close=104", "up RETRY close=104", "up RETRY close=104", '{"px": 104}']);
  }, 60_000);

  it("a redirect to a refused address is not followed; an allowed redirect is", async () => {
    await register("redir", "REDIR", [
      { id: "bad", type: "webhook", url: `${base}/redirect-private` },
      { id: "good", type: "webhook", url: `${base}/redirect-ok` },
    ]);
    await edge("/cron/run", { job_id: "redir" });
    expect(at("/after-redirect")).toHaveLength(2);
    const dead = (await edge("/outbox")).json.dead_letters.filter((d: any) => d.stream === "alert:redir:bad");
    expect(dead).toHaveLength(2);
    expect(dead[0].last_error).toMatch(/REDIRECT_REFUSED/);
  }, 60_000);

  it("chat destinations deliver through the bot API to the allowlisted chat", async () => {
    await register("tg", "TG", [{ type: "chat", chat_id: "42" }]);
    await edge("/cron/run", { job_id: "tg" });
    const sent = at("/tg/bottok/sendMessage");
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([
      { chat_id: "42", text: "up TG close=104" },
      { chat_id: "42", text: '{"px": 104}' },
    ]);
  }, 60_000);
});
