// A StudyCoordinator that stops mid-study (its object evicted while batches were out) resumes in a new
// instance over the same storage: the alarm delivered again replays the stored trials' proposals and
// sends only the batches that had not settled, and the study ends as the uninterrupted in-process one.
// The coordinator class is host-neutral, so this runs in Node: in-memory storage and R2, and an
// EVALUATE binding that calls the worker's batch handler (trial-batch.ts) in process.

import { describe, expect, it } from "vitest";
import { StudyCoordinator, type StudyMeta } from "../../src/edge/study-coordinator.js";
import { runTrialBatch, type BatchRequest, type StudySpec } from "../../src/edge/trial-batch.js";
import { FANOUT_CAPS } from "../../src/edge/fanout-limits.js";
import type { EdgeEnv } from "../../src/edge/bindings.js";
import { prepareStudy, runStudy } from "../../src/optimize/index.js";
import { createInProcessEngine, studyTrialRunner, TRIAL_BROKER } from "../../src/server/engine.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";

const STRATEGY = `//@version=6
strategy("resume", overlay=true)
len = input.int(10, "Length", minval=2, maxval=30)
basis = ta.sma(close, len)
if close > basis
    strategy.entry("L", strategy.long)
if close < basis
    strategy.close("L")
`;
const SPACE = { params: [{ name: "Length", kind: "int", min: 2, max: 30 }] };
const BARS = randomWalkBars(120);
const REQUEST = {
  script: STRATEGY,
  space: SPACE,
  n_trials: 60,
  seed: 4,
  sampler: "tpe",
  min_trades: 1,
  parallelism: 6,
};

function memoryStorage() {
  const map = new Map<string, unknown>();
  return {
    map,
    async get<T>(key: string) {
      return structuredClone(map.get(key)) as T | undefined;
    },
    async put(key: string, value: unknown) {
      map.set(key, structuredClone(value));
    },
    async list<T>(opts: { prefix: string }) {
      const keys = [...map.keys()].filter((k) => k.startsWith(opts.prefix)).sort();
      return new Map(keys.map((k) => [k, structuredClone(map.get(k)) as T]));
    },
    async setAlarm(_when: number) {},
  };
}

function memoryBucket() {
  const map = new Map<string, string>();
  return {
    async get(key: string) {
      const v = map.get(key);
      return v === undefined ? null : { text: async () => v };
    },
    async put(key: string, value: string) {
      map.set(key, value);
    },
    async delete(key: string) {
      map.delete(key);
    },
  };
}

describe("StudyCoordinator restarts", () => {
  it("resumes from its stored trials and ends as the uninterrupted study", async () => {
    const engine = createInProcessEngine();
    const bucket = memoryBucket();
    await bucket.put("studies/bars/b.json", JSON.stringify(BARS));
    const spec: StudySpec = {
      request: REQUEST,
      bars_key: "studies/bars/b.json",
      symbol: "CHART",
      libraries: [],
      run_seconds: 30,
    };
    await bucket.put("studies/s/spec.json", JSON.stringify(spec));
    const batchesSeen: number[][] = [];
    /** The worker's batch handler in process; `hangAfter` batches later it stops answering (the object is gone). */
    const evaluate = (hangAfter: number) => {
      let calls = 0;
      return {
        async fetch(_url: string | Request, init?: RequestInit): Promise<Response> {
          const body = JSON.parse(String(init?.body)) as BatchRequest;
          if (++calls > hangAfter) return new Promise<Response>(() => undefined);
          batchesSeen.push((body.trials ?? []).map((t) => t.index));
          const trials = await runTrialBatch(env, engine, body);
          return Response.json({ status: "success", trials });
        },
      };
    };
    const env: EdgeEnv = { RESIN_BARS: bucket, EVALUATE: evaluate(6) };
    const storage = memoryStorage();
    const meta: StudyMeta = {
      id: "00000000-0000-4000-8000-000000000001",
      spec_key: "studies/s/spec.json",
      total: 60,
      batch_size: 3,
      concurrency: 3,
      parallelism: 6,
      max_retries: 0,
      batch_deadline_ms: 600_000,
      status: "running",
      error: null,
      created_at: Date.now(),
      finished_at: null,
    };
    const first = new StudyCoordinator({ storage }, env);
    await first.fetch(new Request("https://study/start", { method: "POST", body: JSON.stringify(meta) }));
    void first.alarm(); // never settles: its seventh batch is never answered
    for (let i = 0; i < 200 && batchesSeen.length < 6; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 100));
    const storedBefore = [...storage.map.keys()].filter((k) => k.startsWith("t:")).length;
    // every answered batch precedes the unanswered one, so all their trials were stored
    expect(storedBefore).toBe(batchesSeen.flat().length);
    expect(storedBefore).toBeGreaterThan(10);

    // the platform delivers the alarm again, to a new instance over the same storage
    batchesSeen.length = 0;
    const second = new StudyCoordinator({ storage }, { ...env, EVALUATE: evaluate(Infinity) });
    await second.alarm();
    const status = (await (await second.fetch(new Request("https://study/result"))).json()) as any;
    expect(status.state).toBe("done");
    // only the trials not stored were sent again
    expect(Math.min(...batchesSeen.flat())).toBe(storedBefore);
    expect(batchesSeen.flat()).toHaveLength(60 - storedBefore);

    const study = prepareStudy({ ...REQUEST, data: BARS }, FANOUT_CAPS);
    const local = await runStudy(
      study,
      studyTrialRunner(engine, study, {
        script: STRATEGY,
        symbol: "CHART",
        broker: TRIAL_BROKER,
        options: { mode: "auto" },
      }),
    );
    const comparable = (r: any) =>
      JSON.parse(JSON.stringify({ ...r, ms: 0, trials: r.trials.map((t: any) => ({ ...t, ms: 0 })) }));
    expect(comparable(status.result)).toEqual(comparable(local));
  }, 120_000);
});
