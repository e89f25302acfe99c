// Ahead-of-time compiled scripts on workerd (issue 24), for real under Miniflare: the edge bundle is
// built with a few registered scripts (corpus and conformance: indicators, strategies, inputs), whose
// generated bar loops are emitted as ES modules and bundled in. workerd forbids `new Function`, so
// a run in compile mode can only be compiled through them. Each registered script's compiled run on
// workerd must equal, byte for byte of the /run JSON, the same run interpreted on workerd and
// compiled in Node (the same Hono app in-process); a script left out of the bundle interprets with
// the reason, and a cron job of a registered script runs compiled.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare } from "miniflare";
import { evaluateWorker } from "./worker-options.js";
import { buildEdgeWorker, type EdgeBundle } from "../../src/ops/edge-build.js";
import { createApp } from "../../src/server/app.js";
import { createInProcessEngine } from "../../src/server/engine.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { NO_AOT_MODULE, NO_AOT_RERUN_MODULE } from "../../src/compile/aot.js";
import { loadTaCase } from "../helpers/conformance.js";
import { ROOT } from "../helpers/data.js";

const corpus = (f: string) => readFileSync(join(ROOT, "tests", "corpus", f), "utf8");
const conformance = (kind: string, name: string) =>
  readFileSync(join(ROOT, "tests", "conformance", "data", "tradingview", kind, name, "script.pine"), "utf8");

const macd = loadTaCase("macd");
const synthetic = syntheticBars(600);

/** Registered scripts and the runs each is checked with (data, inputs). */
const CASES: { id: string; source: string; data: unknown[]; inputs?: Record<string, unknown>; syminfo?: unknown }[] = [
  { id: "sma-indicator", source: corpus("gen_001_sma_indicator.pine"), data: synthetic },
  { id: "ema-ribbon", source: corpus("v6_ema_ribbon.pine"), data: synthetic },
  { id: "bollinger", source: corpus("v6_bollinger_strategy.pine"), data: macd.bars, inputs: { Length: 14 } },
  { id: "tv-macd", source: macd.script, data: macd.bars, syminfo: macd.syminfo },
  {
    id: "tv-macd-strategy",
    source: conformance("strategy", "macd"),
    data: macd.bars,
    inputs: { "Fast length": 10 },
  },
];
const UNREGISTERED = corpus("v6_ichimoku.pine");

let mf: Miniflare;
let bundle: EdgeBundle;
const node = createApp({ engine: createInProcessEngine(), defaultMode: "interpret" });

function body(c: (typeof CASES)[number], mode: string): Record<string, unknown> {
  return {
    script: c.source,
    data: c.data,
    mode,
    ...(c.inputs ? { inputs: c.inputs } : {}),
    ...(c.syminfo ? { syminfo: c.syminfo } : {}),
  };
}

async function edgeRun(json: unknown): Promise<any> {
  const res = await mf.dispatchFetch("http://edge.local/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  return res.json();
}

async function nodeRun(json: unknown): Promise<any> {
  const res = await node.fetch(
    new Request("http://node.local/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(json),
    }),
  );
  return res.json();
}

/** The result without what legitimately differs between two runs (ids, timings, the backend). */
function comparable(r: any): string {
  const { run_id: _r, profile: _p, mode: _m, auto_backend: _a, compile_fallback_reason: _c, ...rest } = r;
  return JSON.stringify({ ...rest, events: (rest.events ?? []).map(({ run_id: _x, ...e }: any) => e) });
}

beforeAll(async () => {
  bundle = await buildEdgeWorker(join(ROOT, "build", "edge-aot-test"), {
    scripts: CASES.map((c) => ({ id: c.id, source: c.source })),
    deploy: "test",
  });
  mf = new Miniflare({
    ...(await evaluateWorker(bundle)),
    d1Databases: ["RESIN_DB"],
  } as never);
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("ahead-of-time compiled scripts on workerd", () => {
  it("the deploy emitted a module per registered script", () => {
    expect(bundle.aot?.skipped).toEqual([]);
    expect(bundle.aot?.compiled.map((c) => c.id).sort()).toEqual(CASES.map((c) => c.id).sort());
    for (const c of bundle.aot!.compiled) expect(c.modules.length).toBeGreaterThan(0);
  });

  for (const c of CASES) {
    it(`${c.id}: compiled on workerd, identical to interpret on workerd and to compile in Node`, async () => {
      const compiled = await edgeRun(body(c, "compile"));
      expect(compiled.error ?? null).toBeNull();
      expect(compiled.compile_fallback_reason).toBeUndefined();
      expect(compiled.mode).toBe("compile");
      const interpreted = await edgeRun(body(c, "interpret"));
      expect(interpreted.mode).toBe("interpret");
      const inNode = await nodeRun(body(c, "compile"));
      expect(inNode.mode).toBe("compile");
      expect(comparable(compiled)).toBe(comparable(interpreted));
      expect(comparable(compiled)).toBe(comparable(inNode));
      // the strategies trade on these bars (a run with no orders would compare little of the broker)
      if (c.source.includes("strategy(")) expect(compiled.strategy.trades.length).toBeGreaterThan(0);
    }, 60_000);
  }

  it("auto picks the compiled loop of a registered script", async () => {
    const r = await edgeRun(body(CASES[0]!, "auto"));
    expect(r).toMatchObject({ mode: "compile", auto_backend: "compile" });
  });

  it("a script not in the bundle interprets on workerd and says why", async () => {
    const c = { id: "x", source: UNREGISTERED, data: synthetic };
    const r = await edgeRun(body(c, "compile"));
    expect(r.error ?? null).toBeNull();
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toBe(NO_AOT_MODULE);
    const auto = await edgeRun(body(c, "auto"));
    expect(auto).toMatchObject({
      mode: "interpret",
      auto_backend: "interpret",
      compile_fallback_reason: NO_AOT_MODULE,
    });
  });

  it("a realtime run of a registered indicator interprets and says why (no re-runnable module emitted)", async () => {
    const r = await edgeRun({ ...body(CASES[0]!, "auto"), realtime: { bars: 2, ticks: 3 } });
    expect(r.error ?? null).toBeNull();
    expect(r).toMatchObject({
      mode: "interpret",
      auto_backend: "interpret",
      compile_fallback_reason: NO_AOT_RERUN_MODULE,
    });
  });

  it("a registered script edited after the deploy interprets (no stale loop)", async () => {
    const edited = `${CASES[0]!.source}\nplot(close * 2, "twice")\n`;
    const r = await edgeRun({ script: edited, data: synthetic, mode: "compile" });
    expect(r).toMatchObject({ mode: "interpret", compile_fallback_reason: NO_AOT_MODULE });
  });

  it("an edit that keeps the loop text (another builtin, reached through the refs) runs the same compiled loop", async () => {
    // the key is the generated text, not the script: builtins are refs (K), so sma -> wma leaves the
    // text as it was and the module is exactly the function `new Function` would have made (not ema:
    // an ema the passes do not take is written out in the loop, src/compile/inline-ta.ts)
    const edited = CASES[0]!.source.replace("ta.sma(", "ta.wma(");
    expect(edited).not.toBe(CASES[0]!.source);
    const json = { script: edited, data: synthetic, mode: "compile" };
    const r = await edgeRun(json);
    expect(r.mode).toBe("compile");
    expect(comparable(r)).toBe(comparable(await nodeRun({ ...json, mode: "interpret" })));
  });

  it("cron jobs of a registered script run compiled; of an unregistered one, interpreted with the reason", async () => {
    const call = async (method: string, path: string, json: unknown) =>
      (
        await mf.dispatchFetch(`http://edge.local${path}`, {
          method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(json),
        })
      ).json() as Promise<any>;
    await call("POST", "/scripts", { id: "bollinger", source: CASES[2]!.source });
    await call("POST", "/scripts", { id: "late", source: UNREGISTERED });
    await call("POST", "/ingest", { symbol: "X", timeframe: "1", bars: synthetic.slice(0, 300) });
    const job = { symbol: "X", timeframe: "1", forward_events: false };
    await call("PUT", "/cron/jobs", {
      jobs: [
        { id: "j1", script_id: "bollinger", inputs: { Length: 14 }, ...job },
        { id: "j2", script_id: "late", ...job },
      ],
    });
    // the registry says which scripts this deploy carries compiled
    const listed = (await (await mf.dispatchFetch("http://edge.local/scripts")).json()) as any;
    const aot = Object.fromEntries(listed.scripts.map((s: any) => [s.id, s.aot]));
    expect(aot).toEqual({ bollinger: true, late: false });
    expect(((await (await mf.dispatchFetch("http://edge.local/scripts/late")).json()) as any).aot).toBe(false);
    const out = await call("POST", "/cron/run", { force: true });
    const byId = Object.fromEntries(out.results.map((r: any) => [r.job_id, r]));
    expect(byId.j1).toMatchObject({ status: "ran", mode: "compile" });
    expect(byId.j1.compile_fallback_reason).toBeUndefined();
    expect(byId.j2).toMatchObject({ status: "ran", mode: "interpret", compile_fallback_reason: NO_AOT_MODULE });
  }, 60_000);
});
