// Alert delivery from the evaluate worker under Miniflare (workerd, real D1/KV/R2) to a local
// receiver on 127.0.0.1 (allowed explicitly through OUTBOUND_ALLOW_HOSTS): exactly once across
// concurrent cron runs, retried after 500s without losing a bar, HMAC signatures, TradingView's body
// convention with placeholders filled, the outbound guard, the chat allowlist; the response time and
// size caps, dead letters in the trace events and their acknowledgement, the delivery history, and
// the outbox's retention (on a D1 database of its own).

import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type WorkerOptions } from "miniflare";
import { collectLines, evaluateWorker } from "./worker-options.js";
import { buildEdgeWorker } from "../../src/ops/edge-build.js";
import { retention } from "../../src/edge/outbox-drain.js";
import { INTERNAL_KEY, meshWorker } from "../mesh/harness.js";
import type { D1Like } from "../../src/mesh/d1.js";
import {
  DEFAULT_RETENTION,
  acknowledgeDead,
  enqueueStatements,
  ensureOutbox,
  pruneOutbox,
  settle,
} from "../../src/mesh/outbox.js";

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
let bundle: Awaited<ReturnType<typeof buildEdgeWorker>>;
/** The worker's console lines (its trace events among them). */
const consoleLines: string[] = [];
const traces = (kind: string) =>
  consoleLines
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((t) => t.trace === kind);

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

/** A worker of its own (fresh KV/D1) with extra vars, its console lines kept: for policies the shared one does not have. */
async function ownWorker(vars: Record<string, string>) {
  const lines: string[] = [];
  const w = new Miniflare({
    ...(await evaluateWorker(bundle)),
    d1Databases: ["RESIN_DB"],
    handleRuntimeStdio: collectLines(lines),
    bindings: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", ...vars },
  } as WorkerOptions);
  const call = async (path: string, json?: unknown, method?: string) =>
    (await (
      await w.dispatchFetch(`http://edge.local${path}`, {
        method: method ?? (json === undefined ? "GET" : "POST"),
        headers: { "content-type": "application/json" },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      })
    ).json()) as any;
  return {
    call,
    /** The alerting script as job `id` on `symbol`'s 4 bars, with one webhook. */
    register: async (id: string, symbol: string, url: string) => {
      await call("/scripts", { id, source: ALERTING });
      await call(`/scripts/${id}/alerts`, { destinations: [{ type: "webhook", url }] }, "PUT");
      await call("/ingest", { symbol, timeframe: "1", bars: bars(0, 4) });
      await call("/cron/jobs", { jobs: [{ id, script_id: id, symbol, timeframe: "1" }] }, "PUT");
    },
    traces: (kind: string) =>
      lines
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((t) => t.trace === kind),
    dispose: () => w.dispose(),
  };
}

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
      if (path === "/hang") {
        // Never answers (until the test server closes): the worker's time cap must end the attempt.
        received.push({ path, headers: req.headers, body });
        return;
      }
      if (path === "/endless") {
        // An answer that never ends: the worker reads only its first 64 KiB, then settles.
        received.push({ path, headers: req.headers, body });
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "x".repeat(16_384);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
          if (!res.destroyed) res.once("drain", pump);
        };
        pump();
        return;
      }
      received.push({ path, headers: req.headers, body });
      if (path === "/always500") {
        res.writeHead(500);
        return res.end("always");
      }
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
  bundle = await buildEdgeWorker();
  mf = new Miniflare({
    ...(await evaluateWorker(bundle)),
    d1Databases: ["RESIN_DB", "PRUNE_DB"],
    handleRuntimeStdio: collectLines(consoleLines),
    bindings: {
      OUTBOUND_TIMEOUT_MS: "1500",
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
  server?.closeAllConnections();
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

  it("keep_secret keeps the stored secret of the same id and URL (the API never shows it)", async () => {
    await edge("/scripts", { id: "keep", source: ALERTING });
    const put = (d: Record<string, unknown>) =>
      edge("/scripts/keep/alerts", { destinations: [{ id: "w", type: "webhook", ...d }] }, "PUT");
    expect((await put({ url: `${base}/k`, secret: "first-secret" })).json.destinations[0].signed).toBe(true);
    expect((await put({ url: `${base}/k`, keep_secret: true })).json.destinations[0].signed).toBe(true);
    // A new URL drops it (the secret was shared with the old receiver); without keep_secret it is dropped too.
    expect((await put({ url: `${base}/k2`, keep_secret: true })).json.destinations[0].signed).toBe(false);
    await put({ url: `${base}/k`, secret: "first-secret" });
    expect((await put({ url: `${base}/k` })).json.destinations[0].signed).toBe(false);
    const bad = await put({ url: `${base}/k`, keep_secret: "yes" });
    expect([bad.status, bad.json.code, bad.json.field]).toEqual([400, "INVALID_FIELD", "destinations[0].keep_secret"]);
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

  it("a destination that keeps failing is dead-lettered after OUTBOX_MAX_ATTEMPTS, each attempt traced", async () => {
    const w = await ownWorker({ OUTBOX_MAX_ATTEMPTS: "2", OUTBOX_RETRY_BASE_MS: "0" });
    try {
      await w.register("x", "EXHAUST", `${base}/always500`);
      expect((await w.call("/cron/run", { job_id: "x" })).results[0]).toMatchObject({ alerts_pending: 2 });
      await w.call("/cron/run", { job_id: "x" });
      // The stream's head: two attempts, then dead; the row behind it waits its turn (the next drain).
      const dead = (await w.call("/outbox")).dead_letters;
      expect(dead).toEqual([
        expect.objectContaining({ channel: "alert", attempts: 2, last_error: "destination answered 500: always" }),
      ]);
      expect(w.traces("outbox.retry").map((t) => [t.key, t.attempts])).toEqual([[dead[0].key, 1]]);
      expect(w.traces("outbox.dead").map((t) => [t.key, t.attempts])).toEqual([[dead[0].key, 2]]);
      expect(at("/always500")).toHaveLength(2);
    } finally {
      await w.dispose();
    }
  }, 60_000);

  it("a strategy's order-fill alerts (alert_message) are delivered like alert() firings", async () => {
    const strategy = `//@version=6
strategy("fills", pyramiding=100)
strategy.order("o", strategy.long, 1, alert_message="go long {{ticker}} at {{strategy.order.price}}")
`;
    await edge("/scripts", { id: "fills", source: strategy });
    await edge("/scripts/fills/alerts", { destinations: [{ type: "webhook", url: `${base}/fills` }] }, "PUT");
    await edge("/ingest", { symbol: "FILLS", timeframe: "1", bars: bars(0, 4) });
    const jobs = ((await edge("/cron/jobs")).json.jobs as { id: string }[]).filter((j) => j.id !== "fills");
    await edge(
      "/cron/jobs",
      { jobs: [...jobs, { id: "fills", script_id: "fills", symbol: "FILLS", timeframe: "1", forward_events: false }] },
      "PUT",
    );
    expect((await edge("/cron/run", { job_id: "fills" })).json.results[0]).toMatchObject({ alerts_delivered: 1 });
    // The last bar's fill: the order placed on the bar before fills at this bar's open (103).
    expect(at("/fills").map((r) => r.body)).toEqual(["go long FILLS at 103"]);
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

  it("dead letters are trace events; acknowledging takes them off the dead-letter list", async () => {
    const dead = (await edge("/outbox")).json.dead_letters.filter((d: any) => d.stream === "alert:redir:bad");
    const keys = dead.map((d: any) => d.key).sort();
    expect(keys).toHaveLength(2);
    const events = traces("outbox.dead").filter((t) => t.stream === "alert:redir:bad");
    expect(events.map((t) => t.key).sort()).toEqual(keys);
    expect(events[0]).toMatchObject({
      channel: "alert",
      attempts: 1,
      error: expect.stringMatching(/REDIRECT_REFUSED/),
    });
    const ack = await edge("/outbox/ack", { keys: [keys[0], "no-such-key"] });
    expect(ack.json).toEqual({ status: "success", acknowledged: 1 });
    const after = (await edge("/outbox")).json;
    expect(after.dead_letters.map((d: any) => d.key)).not.toContain(keys[0]);
    expect(after.dead_letters.map((d: any) => d.key)).toContain(keys[1]);
    expect(after.depth).toContainEqual(expect.objectContaining({ channel: "alert", status: "acknowledged", count: 1 }));
    const history = (await edge("/scripts/redir/alerts/deliveries?status=acknowledged")).json.deliveries;
    expect(history).toEqual([expect.objectContaining({ key: keys[0], dest_id: "bad", status: "acknowledged" })]);
    expect((await edge("/outbox/ack", {})).json.code).toBe("MISSING_FIELD");
    expect((await edge("/scripts/redir/alerts/deliveries?status=lost")).status).toBe(400);
  }, 60_000);

  it("the delivery history says what was sent, to which destination, and what became of it", async () => {
    const res = await edge("/scripts/once/alerts/deliveries?limit=3");
    expect(res.status).toBe(200);
    expect(res.json.deliveries).toHaveLength(3);
    expect(res.json.deliveries[0]).toMatchObject({
      dest_id: "d0",
      status: "delivered",
      attempts: 1,
      last_error: null,
      bar_time: 1_700_000_000_000 + 4 * 60_000,
    });
    expect(res.json.deliveries.map((d: any) => d.message)).toContain("up ONCE close=105");
    expect(res.json.deliveries.find((d: any) => d.message === "up ONCE close=105").title).toBe("up");
    expect((await edge("/scripts/nobody/alerts/deliveries")).status).toBe(404);
  }, 60_000);

  it("a receiver that never answers is cut off by the time cap and retried; an endless answer is read only to its cap", async () => {
    await register("slow", "SLOW", [
      { id: "hang", type: "webhook", url: `${base}/hang` },
      { id: "endless", type: "webhook", url: `${base}/endless` },
    ]);
    const t0 = Date.now();
    const run = (await edge("/cron/run", { job_id: "slow" })).json.results[0];
    // Both firings reach /endless (the answer's first 64 KiB, then delivered); /hang's first one times out.
    expect(at("/endless")).toHaveLength(2);
    expect(at("/hang")).toHaveLength(1);
    expect(run).toMatchObject({ alerts_queued: 4, alerts_delivered: 2, alerts_pending: 2 });
    expect(Date.now() - t0).toBeLessThan(15_000);
    const hung = (await edge("/scripts/slow/alerts/deliveries")).json.deliveries.filter(
      (d: any) => d.dest_id === "hang" && d.last_error,
    );
    expect(hung[0].last_error).toBe("no answer within 1500 ms");
    expect(traces("outbox.retry").some((t) => t.stream === "alert:slow:hang")).toBe(true);
    // Nothing else is left hanging: drop the destination so the next drains cancel its rows.
    await edge(
      "/scripts/slow/alerts",
      { destinations: [{ id: "endless", type: "webhook", url: `${base}/endless` }] },
      "PUT",
    );
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

describe("alerts reach the trade mesh only through a webhook pointed at its gateway", () => {
  // TradingView's way: the alertcondition's message is the gateway's webhook body (secret inside),
  // with {{time}} as its key so a repeated delivery is the same order.
  const GATED = `//@version=6
indicator("gated")
alertcondition(close > open, "buy", '{"secret": "tv-secret-123", "action": "buy", "symbol": "{{ticker}}", "qty": 1, "price": {{close}}, "key": "{{time}}"}')
plot(close)
`;
  let mesh: Miniflare;
  let meshUrl: string;

  beforeAll(async () => {
    mesh = new Miniflare({
      ...(await meshWorker({ WEBHOOK_TV_SECRET: "tv-secret-123" })),
      host: "127.0.0.1",
      port: 0,
    } as unknown as WorkerOptions);
    meshUrl = (await mesh.ready).toString().replace(/\/$/, "");
  }, 120_000);
  afterAll(async () => {
    await mesh?.dispose();
  });

  const trades = async () =>
    (
      (await (await fetch(`${meshUrl}/trades?limit=50`, { headers: { "x-internal-key": INTERNAL_KEY } })).json()) as {
        trades: { key: string; status: string; symbol: string; side: string; qty: number; source: string }[];
      }
    ).trades;

  it("one order per firing, once across concurrent runs; a new bar is a new order", async () => {
    await edge("/scripts", { id: "gated", source: GATED });
    const put = await edge(
      "/scripts/gated/alerts",
      { destinations: [{ type: "webhook", url: `${meshUrl}/webhook/tv` }] },
      "PUT",
    );
    expect(put.status).toBe(200);
    await edge("/ingest", { symbol: "GATE", timeframe: "1", bars: bars(0, 4) });
    const jobs = ((await edge("/cron/jobs")).json.jobs as { id: string }[]).filter((j) => j.id !== "gated");
    await edge(
      "/cron/jobs",
      { jobs: [...jobs, { id: "gated", script_id: "gated", symbol: "GATE", timeframe: "1" }] },
      "PUT",
    );
    await Promise.all([1, 2, 3].map(() => edge("/cron/run", { job_id: "gated" })));
    let placed = await trades();
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({
      key: "wh:tv:2023-11-14T22:16:20Z",
      status: "placed",
      symbol: "GATE",
      side: "buy",
      qty: 1,
      source: "webhook",
    });
    await edge("/ingest", { symbol: "GATE", timeframe: "1", bars: bars(4, 1) });
    await Promise.all([edge("/cron/run", { job_id: "gated" }), edge("/cron/run", {})]);
    placed = await trades();
    expect(placed.map((t) => t.key).sort()).toEqual(["wh:tv:2023-11-14T22:16:20Z", "wh:tv:2023-11-14T22:17:20Z"]);
    // Every other alert of this file went to its own receivers: the gateway saw only these two.
    expect(placed.every((t) => t.symbol === "GATE")).toBe(true);
  }, 60_000);
});

describe("outbox retention", () => {
  async function db(): Promise<D1Like> {
    const d = (await mf.getD1Database("PRUNE_DB")) as unknown as D1Like;
    await ensureOutbox(d);
    return d;
  }
  const row = (key: string) => ({ key, channel: "alert" as const, stream: `s:${key}`, bar_time: 1, payload: {} });
  const keys = async (d: D1Like) =>
    (await d.prepare("SELECT key, status FROM outbox ORDER BY id").all<{ key: string; status: string }>()).results;
  const HOUR = 3_600_000;

  it("prunes settled rows after their period, dead letters after the longer one, never open rows", async () => {
    const d = await db();
    await d.batch(enqueueStatements(d, ["done", "dead", "acked", "open"].map(row), 0));
    const ids = new Map(
      (await d.prepare("SELECT id, key FROM outbox").all<{ id: number; key: string }>()).results.map((r) => [
        r.key,
        r.id,
      ]),
    );
    await settle(d, ids.get("done")!, "delivered", 10 * HOUR);
    await settle(d, ids.get("dead")!, "dead", 10 * HOUR, "boom");
    await settle(d, ids.get("acked")!, "dead", 10 * HOUR, "boom");
    expect(await acknowledgeDead(d, ["acked"], 20 * HOUR)).toBe(1);
    const r = { ...DEFAULT_RETENTION, settledMs: 24 * HOUR, deadMs: 72 * HOUR };
    // A day after delivery: the delivered row goes, the one acknowledged later stays.
    expect(await pruneOutbox(d, 34 * HOUR + 1, r)).toEqual({ settled: 1, dead: 0 });
    expect((await keys(d)).map((k) => k.key)).toEqual(["dead", "acked", "open"]);
    expect(await pruneOutbox(d, 44 * HOUR + 1, r)).toEqual({ settled: 1, dead: 0 });
    // The dead letter stays until 72 hours after it was queued; the open row whatever its age.
    expect(await pruneOutbox(d, 71 * HOUR, r)).toEqual({ settled: 0, dead: 0 });
    expect(await pruneOutbox(d, 1000 * HOUR, r)).toEqual({ settled: 0, dead: 1 });
    expect(await keys(d)).toEqual([{ key: "open", status: "pending" }]);
    await d.prepare("DELETE FROM outbox").run();
  });

  it("keeps at most maxSettled settled rows and maxDead dead letters, the newest", async () => {
    const d = await db();
    const names = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    await d.batch(enqueueStatements(d, names.map(row), 0));
    const ids = (await d.prepare("SELECT id FROM outbox ORDER BY id").all<{ id: number }>()).results.map((r) => r.id);
    for (const [i, id] of ids.entries()) await settle(d, id, i % 2 ? "dead" : "delivered", 1);
    expect(await pruneOutbox(d, 2, { ...DEFAULT_RETENTION, maxSettled: 2, maxDead: 3 })).toEqual({
      settled: 4,
      dead: 3,
    });
    expect((await keys(d)).map((k) => k.key)).toEqual(["k07", "k08", "k09", "k10", "k11"]);
    await d.prepare("DELETE FROM outbox").run();
  });

  it("the worker prunes after every drain (OUTBOX_MAX_ROWS 1: one delivered row is kept) and traces it", async () => {
    const w = await ownWorker({ OUTBOX_MAX_ROWS: "1" });
    try {
      await w.register("p", "PRUNE", `${base}/pruned`);
      expect((await w.call("/cron/run", { job_id: "p" })).results[0]).toMatchObject({ alerts_delivered: 2 });
      expect(at("/pruned")).toHaveLength(2);
      const left = (await w.call("/scripts/p/alerts/deliveries")).deliveries;
      expect(left).toEqual([expect.objectContaining({ status: "delivered", message: '{"px": 104}' })]);
      expect(w.traces("outbox.pruned")).toEqual([{ trace: "outbox.pruned", settled: 1, dead: 0 }]);
    } finally {
      await w.dispose();
    }
  }, 60_000);

  it("reads its periods and caps from the worker's vars, defaults otherwise", () => {
    expect(retention({})).toEqual(DEFAULT_RETENTION);
    expect(
      retention({
        OUTBOX_RETAIN_HOURS: "0.5",
        OUTBOX_DEAD_RETAIN_HOURS: "48",
        OUTBOX_MAX_ROWS: "100",
        OUTBOX_MAX_DEAD: "x",
      }),
    ).toEqual({ settledMs: 1_800_000, deadMs: 172_800_000, maxSettled: 100, maxDead: DEFAULT_RETENTION.maxDead });
  });
});
