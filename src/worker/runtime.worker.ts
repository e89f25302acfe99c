// The Web Worker entry: the library Runtime behind Comlink. The page hands bars over once per data
// set (setBars, transferred) and then asks for runs by key, so optimize trials never resend bars.
// A run in progress cannot be interrupted from inside (the bar loop is synchronous): the pool
// cancels by terminating the worker; `cancel` here stops a worker-side optimize between trials.

import * as Comlink from "comlink";
import { Runtime } from "../runtime/index.js";
import { parse } from "../lang/index.js";
import { check } from "../check/index.js";
import { registry } from "../builtins/index.js";
import type { Diagnostic } from "../lang/ast.js";
import { initKernels, workerKernels } from "./kernels.js";
import type { RunResult } from "../core/result.js";
import {
  leanResult,
  packSeries,
  sliceBars,
  spentTrialReply,
  TRIAL_BROKER,
  toColumnar,
  trialOutcome,
  trialRunOptions,
  type PackedBars,
  type PackedRunResult,
  type RunRequest,
  type TrialReply,
  type TrialRequest,
} from "./protocol.js";
import type { OptimizeResult } from "../optimize/index.js";
import { runStudyInWorker, type StudyProgress, type StudyRequest } from "./study.js";

const barSets = new Map<string, PackedBars>();
let cancelled = false;

/**
 * Runs a request over its stored bars (or a slice of them) with this worker's kernel instance. An
 * optimize trial keeps every closed trade (no 9,000-trade trimming): the study scores the whole list.
 */
async function evaluate(req: TrialRequest, trial = false): Promise<RunResult> {
  await initKernels();
  const bars = barSets.get(req.barsKey);
  if (!bars) throw new Error(`no bars stored under "${req.barsKey}"`);
  // (views, not copies: every trial and fold reads the one set this worker holds)
  const slice = req.slice ? sliceBars(bars, req.slice[0], req.slice[1]) : bars;
  const runtime = req.runtime ?? {};
  // a trial's run is the one every host makes (protocol.ts TRIAL_BROKER, trialRunOptions); lean runs
  // return no events (protocol.ts leanResult), so the broker logs none
  const lean = (req as RunRequest).lean === true;
  const broker = trial
    ? { ...runtime.broker, ...TRIAL_BROKER }
    : lean
      ? { ...runtime.broker, record_events: false }
      : runtime.broker;
  const rt = new Runtime(req.symbol ?? "CHART", broker === runtime.broker ? runtime : { ...runtime, broker });
  const kernels = workerKernels!;
  const options = trial ? trialRunOptions(req.options) : (req.options ?? {});
  const result = rt.runSync(req.source, toColumnar(slice), options, kernels.forRun());
  if (result.error || result.timed_out) kernels.discard();
  return result;
}

async function runOnce(req: RunRequest): Promise<PackedRunResult> {
  const t0 = performance.now();
  const result = await evaluate(req);
  if (req.lean) return { ...leanResult(result), worker_ms: performance.now() - t0 };
  const { packed, transfer } = packSeries(result);
  packed.worker_ms = performance.now() - t0;
  return Comlink.transfer(packed, transfer);
}

/** When this worker last replied to a trial (how long it then waited for the next one is reported). */
let lastTrialEnd: number | null = null;

/** One optimize trial: the run, and back only what the study reads (protocol.ts TrialReply). */
async function trialOnce(req: TrialRequest): Promise<TrialReply> {
  const t0 = performance.now();
  const { reply, transfer } = spentTrialReply(await evaluate(req, true), 0);
  const end = performance.now();
  reply.worker_ms = end - t0;
  reply.idle_ms = lastTrialEnd === null ? 0 : t0 - lastTrialEnd;
  lastTrialEnd = end;
  return Comlink.transfer(reply, transfer);
}

const api = {
  /** Loads the WASM kernels; resolves with a short description (for the status bar). */
  async ready(): Promise<string> {
    await initKernels();
    return "wasm";
  },
  setBars(key: string, bars: PackedBars): void {
    barSets.set(key, bars);
  },
  dropBars(key: string): void {
    barSets.delete(key);
  },
  hasBars(key: string): boolean {
    return barSets.has(key);
  },
  run: runOnce,
  trial: trialOnce,
  /** Diagnostics for the editor: the parser's, then (when it parses) the checker's. */
  check(source: string): Diagnostic[] {
    const parsed = parse(source);
    if (parsed.diagnostics.some((d) => d.severity === "error")) return parsed.diagnostics;
    try {
      return [...parsed.diagnostics, ...check(parsed.ast, registry, [], { diagnosticsOnly: true }).diagnostics];
    } catch (e) {
      // a checker fault must not take the editor down; say so where the user looks
      return [
        ...parsed.diagnostics,
        {
          severity: "warning",
          message: `checker failed: ${(e as Error).message}`,
          line: 1,
          column: 1,
          end_line: 1,
          end_column: 1,
        },
      ];
    }
  },
  /** A whole optimize study inside this one worker, reporting each finished trial. */
  async optimize(req: StudyRequest, onProgress?: (p: StudyProgress) => void): Promise<OptimizeResult> {
    cancelled = false;
    const bars = barSets.get(req.barsKey);
    if (!bars) throw new Error(`no bars stored under "${req.barsKey}"`);
    // A Comlink progress proxy has its own channel: the result could overtake the last progress
    // calls, so they are awaited (all at once, at the end) before the result goes back.
    const delivered: Promise<unknown>[] = [];
    const report = onProgress && ((p: StudyProgress) => void delivered.push(Promise.resolve(onProgress(p))));
    const result = await runStudyInWorker(
      req,
      bars,
      (r) => evaluate(r, true).then((res) => trialOutcome(spentTrialReply(res, 0).reply)),
      () => cancelled,
      report,
      (r) => evaluate(r),
    );
    await Promise.all(delivered);
    return result;
  },
  cancel(): void {
    cancelled = true;
  },
};

export type RuntimeWorkerApi = typeof api;

Comlink.expose(api);
