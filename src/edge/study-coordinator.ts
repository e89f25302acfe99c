// StudyCoordinator, the Durable Object that runs one fanned-out study (one object per study id).
// It runs the sampler and the study loop (src/optimize/driver.ts) itself and fans only the
// evaluation out: each batch of proposed trials is one POST /studies/batch through the EVALUATE
// service binding, i.e. one invocation of the evaluate worker, with up to `concurrency` in flight.
// Proposals stay in this one place, in index order, so the study is the local study with the same
// seed and parallelism (the driver's header says why), whatever the batches' timing.
//
// Why a Durable Object plus service binding rather than a Queue with a results collector: the study
// loop must see outcomes in index order before drawing TPE's next generation, which a collector would
// have to reassemble anyway; a service-binding call returns its batch's outcome to the caller directly,
// so per-batch deadlines and retries are a loop around one fetch, and cancellation is an AbortSignal.
// Miniflare 3 runs Durable Objects, alarms and service bindings (a worker bound to itself) in real
// workerd; its Queues fire consumers on batch timers, which would make tests wait on timeouts.
//
// The loop runs in an alarm (set when the study starts): it may await subrequests for minutes, and a
// Durable Object keeps an alarm alive where a response's background work may be cut. Every scored
// trial is stored as it settles; an alarm that dies is retried by the platform and resumes: the
// driver replays the stored trials' proposals (the Rng advances the same) without re-running them.

import { driveStudy, OptimizeAbortedError } from "../optimize/index.js";
import type { EdgeEnv, FetcherLike } from "./bindings.js";
import {
  fromWire,
  loadStudy,
  readJsonObject,
  studiesBucket,
  toWire,
  type StudySpec,
  type WireScored,
} from "./trial-batch.js";

interface StorageLike {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  list<T>(opts: { prefix: string }): Promise<Map<string, T>>;
  setAlarm(when: number): Promise<void>;
}

interface StateLike {
  storage: StorageLike;
}

export type StudyStatus = "running" | "done" | "failed" | "cancelled";

/** What POST /start stores: the study's shape and fan-out settings. */
export interface StudyMeta {
  id: string;
  spec_key: string;
  total: number;
  batch_size: number;
  concurrency: number;
  parallelism: number;
  max_retries: number;
  batch_deadline_ms: number;
  status: StudyStatus;
  error: { code: string; message: string } | null;
  created_at: number;
  finished_at: number | null;
}

interface Counters {
  dispatched: number;
  succeeded: number;
  retried: number;
  in_flight: number;
  max_in_flight: number;
}

interface Progress {
  completed: number;
  best_index: number | null;
}

const trialKey = (index: number): string => `t:${String(index).padStart(6, "0")}`;

export class StudyCoordinator {
  private readonly storage: StorageLike;
  private readonly env: EdgeEnv;
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private counters: Counters = { dispatched: 0, succeeded: 0, retried: 0, in_flight: 0, max_in_flight: 0 };
  private completed = 0;
  private bestIndex: number | null = null;

  constructor(state: StateLike, env: EdgeEnv) {
    this.storage = state.storage;
    this.env = env;
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === "/start") {
      const meta = (await request.json()) as StudyMeta;
      await this.storage.put("meta", meta);
      await this.storage.setAlarm(Date.now());
      return Response.json(await this.status(meta));
    }
    const meta = await this.storage.get<StudyMeta>("meta");
    if (!meta) return Response.json({ status: "error", code: "NOT_FOUND", message: "no such study" }, { status: 404 });
    if (request.method === "POST" && path === "/cancel") {
      if (meta.status === "running") {
        meta.status = "cancelled";
        meta.finished_at = Date.now();
        await this.storage.put("meta", meta);
        this.controller?.abort();
      }
      return Response.json(await this.status(meta));
    }
    return Response.json(await this.status(meta, path === "/result"));
  }

  async alarm(): Promise<void> {
    const meta = await this.storage.get<StudyMeta>("meta");
    if (meta?.status !== "running") return;
    this.running ??= this.run(meta).finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async status(meta: StudyMeta, withTrials = false): Promise<Record<string, unknown>> {
    // in memory while this instance runs the study; else what it last stored (an evicted object, a finished study)
    const stored = this.running ? null : await this.storage.get<Progress>("progress");
    const out: Record<string, unknown> = {
      id: meta.id,
      state: meta.status,
      completed: stored?.completed ?? this.completed,
      total: meta.total,
      best_index: stored ? stored.best_index : this.bestIndex,
      batch_size: meta.batch_size,
      concurrency: meta.concurrency,
      parallelism: meta.parallelism,
      batches: { ...this.counters },
      error: meta.error,
    };
    if (meta.status === "done") {
      const summary = await this.storage.get<Record<string, unknown>>("result");
      if (summary) {
        out.best_index = summary.best_index;
        if (withTrials) {
          const trials = [...(await this.storage.list<WireScored>({ prefix: "t:" })).values()].map((w) => w.record);
          out.result = { ...summary, trials };
        }
      }
    }
    return out;
  }

  private async run(meta: StudyMeta): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const writes: Promise<unknown>[] = [];
    try {
      const bucket = studiesBucket(this.env);
      const spec = await readJsonObject<StudySpec>(bucket, meta.spec_key);
      const study = await loadStudy(bucket, spec);
      const prior = [...(await this.storage.list<WireScored>({ prefix: "t:" })).values()].map(fromWire);
      this.completed = prior.length;
      const evaluate = this.env.EVALUATE as FetcherLike | undefined;
      if (!evaluate)
        throw Object.assign(new Error("the EVALUATE service binding is not configured"), { code: "NO_FANOUT" });
      const call = (body: unknown) => this.batch(evaluate, meta, body, controller.signal);
      // the batches' replies by trial index, raw scores included, until each is stored in order
      const replies = new Map<number, WireScored>();
      const result = await driveStudy(
        study,
        {
          evaluate: async (batch) => {
            const got = await call({ spec_key: meta.spec_key, trials: batch });
            got.forEach((w, k) => {
              if (w.record.index !== batch[k]!.index) throw new Error("batch reply out of order");
              replies.set(w.record.index, w);
            });
            return got.map(fromWire);
          },
          winnerOos: async (winner) => fromWire((await call({ spec_key: meta.spec_key, winner: toWire(winner) }))[0]!),
        },
        {
          signal: controller.signal,
          batchSize: meta.batch_size,
          concurrency: meta.concurrency,
          prior,
          onProgress: (p) => {
            this.completed = p.completed;
            this.bestIndex = p.best_index;
            const w = replies.get(p.trial.index);
            replies.delete(p.trial.index);
            if (w) writes.push(this.storage.put(trialKey(p.trial.index), w));
            // one small record a poll reads instead of listing every trial (puts to one key coalesce)
            writes.push(this.storage.put("progress", { completed: p.completed, best_index: p.best_index }));
          },
        },
      );
      await Promise.all(writes);
      // the winner's record gains its out-of-sample scores when only it was scored out of sample
      if (result.best_index !== null) {
        const w = await this.storage.get<WireScored>(trialKey(result.best_index));
        if (w) await this.storage.put(trialKey(result.best_index), { ...w, record: result.trials[result.best_index] });
      }
      const { trials: _trials, ...summary } = result;
      await this.storage.put("result", summary);
      await this.finish("done", null);
    } catch (err) {
      await Promise.allSettled(writes);
      if (err instanceof OptimizeAbortedError || controller.signal.aborted) await this.finish("cancelled", null);
      else {
        const code = (err as { code?: string }).code ?? "BATCH_FAILED";
        await this.finish("failed", { code, message: err instanceof Error ? err.message : String(err) });
      }
    } finally {
      this.controller = null;
    }
  }

  private async finish(status: StudyStatus, error: StudyMeta["error"]): Promise<void> {
    const meta = await this.storage.get<StudyMeta>("meta");
    if (!meta) return;
    // a cancel that landed first stays a cancel
    if (meta.status === "running") {
      meta.status = status;
      meta.error = error;
      meta.finished_at = Date.now();
      await this.storage.put("meta", meta);
    }
  }

  /** One batch through the evaluate worker: each attempt under the batch deadline, retried on failure. */
  private async batch(
    evaluate: FetcherLike,
    meta: StudyMeta,
    body: unknown,
    signal: AbortSignal,
  ): Promise<WireScored[]> {
    let last = "";
    for (let attempt = 0; attempt <= meta.max_retries; attempt++) {
      if (signal.aborted) throw new OptimizeAbortedError();
      if (attempt > 0) this.counters.retried++;
      this.counters.dispatched++;
      this.counters.in_flight++;
      this.counters.max_in_flight = Math.max(this.counters.max_in_flight, this.counters.in_flight);
      const deadline = new AbortController();
      const onAbort = () => deadline.abort();
      signal.addEventListener("abort", onAbort);
      const timer = setTimeout(() => deadline.abort(), meta.batch_deadline_ms);
      try {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (this.env.API_KEY) headers["x-api-key"] = String(this.env.API_KEY);
        const res = await evaluate.fetch("https://evaluate/studies/batch", {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal: deadline.signal,
        });
        const text = await res.text();
        if (res.status !== 200) {
          last = `HTTP ${res.status}: ${text.slice(0, 200)}`;
          continue;
        }
        const parsed = JSON.parse(text) as { trials?: WireScored[] };
        const expected = (body as { trials?: unknown[] }).trials?.length ?? 1;
        if (!Array.isArray(parsed.trials) || parsed.trials.length !== expected) {
          last = "malformed batch reply";
          continue;
        }
        this.counters.succeeded++;
        return parsed.trials;
      } catch (e) {
        if (signal.aborted) throw new OptimizeAbortedError();
        last = deadline.signal.aborted ? `deadline of ${meta.batch_deadline_ms} ms passed` : String(e);
      } finally {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.counters.in_flight--;
      }
    }
    throw Object.assign(new Error(`a batch failed ${meta.max_retries + 1} times; last: ${last}`), {
      code: "BATCH_FAILED",
    });
  }
}
