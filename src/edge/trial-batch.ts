// One batch of a fanned-out study, evaluated in one invocation of the evaluate worker
// (POST /studies/batch, called by the study's coordinator through the EVALUATE service binding).
// The study's spec and bars are read from R2 by key (stored once when the study was created) and kept
// per isolate, so the batches an isolate serves read them once; trials are scored by the optimize
// module's evaluateTrial, the same code the in-process study runs, so a trial scores the same here.

import {
  evaluateTrial,
  OptimizeError,
  prepareStudy,
  scoreFromWire,
  scoreToWire,
  scoreWinnerOos,
  type OptimizeRequest,
  type PreparedStudy,
  type ProposedTrial,
  type ScoredTrial,
  type TrialRecord,
  type TrialRunner,
  type WireScore,
} from "../optimize/index.js";
import type { Bar, LibrarySource } from "../core/result.js";
import { studyTrialRunner, TRIAL_BROKER, type Engine } from "../server/engine.js";
import { ApiError } from "../server/errors.js";
import type { EdgeEnv, R2Like } from "./bindings.js";
import { FANOUT_CAPS } from "./fanout-limits.js";

/** What a study stores at `studies/<id>/spec.json`: the request without its bars, which are at `bars_key`. */
export interface StudySpec {
  request: Omit<OptimizeRequest, "data" | "datasets">;
  /** The bars of a one-set study (the first set's in a study of several). */
  bars_key: string;
  /** A study of several data sets: each set's bars and what it runs as. */
  datasets?: { bars_key: string; symbol: string | null; timeframe: string | null }[];
  symbol: string;
  libraries: LibrarySource[];
  /** Timeout of one engine run, seconds. */
  run_seconds: number;
}

/** A scored trial as it travels: the record plus its raw scores (JSON has no Infinity). */
export interface WireScored {
  record: TrialRecord;
  is: WireScore;
  oos: WireScore;
}

export interface BatchRequest {
  spec_key: string;
  trials?: ProposedTrial[];
  /** Score the out-of-sample slices of this in-sample winner instead (oos_every_trial false). */
  winner?: WireScored;
}

export const toWire = (s: ScoredTrial): WireScored => ({
  record: s.record,
  is: scoreToWire(s.is),
  oos: scoreToWire(s.oos),
});

export const fromWire = (w: WireScored): ScoredTrial => ({
  record: w.record,
  is: scoreFromWire(w.is),
  oos: scoreFromWire(w.oos),
});

export function studiesBucket(env: EdgeEnv): R2Like {
  if (!env.RESIN_BARS) throw new ApiError(503, "NO_FANOUT", "fanned-out studies need the RESIN_BARS (R2) binding");
  return env.RESIN_BARS;
}

export async function readJsonObject<T>(bucket: R2Like, key: string): Promise<T> {
  const obj = await bucket.get(key);
  if (!obj) throw new ApiError(404, "NOT_FOUND", `no stored object '${key}'`);
  return JSON.parse(await obj.text()) as T;
}

interface Loaded {
  study: PreparedStudy;
  runner: TrialRunner[];
}

/** A stored study checked again from its spec and bars (the coordinator and each batch do this). */
export async function loadStudy(bucket: R2Like, spec: StudySpec): Promise<PreparedStudy> {
  const req: OptimizeRequest = spec.datasets
    ? {
        ...spec.request,
        data: null,
        datasets: await Promise.all(
          spec.datasets.map(async (d) => ({
            data: await readJsonObject<Bar[]>(bucket, d.bars_key),
            symbol: d.symbol,
            timeframe: d.timeframe,
          })),
        ),
      }
    : ({ ...spec.request, data: await readJsonObject<Bar[]>(bucket, spec.bars_key) } as OptimizeRequest);
  return prepareStudy(req, FANOUT_CAPS);
}

// Per isolate: the last few studies' checked spec, bars (as shared columns) and runner.
const loaded = new Map<string, Promise<Loaded>>();
const LOADED_MAX = 4;

function load(env: EdgeEnv, engine: Engine, specKey: string): Promise<Loaded> {
  let hit = loaded.get(specKey);
  if (!hit) {
    hit = (async () => {
      const bucket = studiesBucket(env);
      const spec = await readJsonObject<StudySpec>(bucket, specKey);
      const study = await loadStudy(bucket, spec);
      // one runner per data set: each packs its set's bars once and runs as that set's symbol/timeframe
      const runner = study.sets.map((set) =>
        studyTrialRunner(
          engine,
          { ...study, bars: set.bars },
          {
            script: study.script,
            symbol: set.symbol ?? spec.symbol,
            ...(set.timeframe ? { timeframe: set.timeframe } : {}),
            broker: TRIAL_BROKER,
            options: {
              mode: "auto",
              timeoutSeconds: spec.run_seconds,
              ...(spec.libraries.length ? { libraries: spec.libraries } : {}),
            },
          },
        ),
      );
      return { study, runner };
    })();
    loaded.set(specKey, hit);
    // a failed load is not kept: the coordinator's retry reads R2 again
    hit.catch(() => loaded.delete(specKey));
    while (loaded.size > LOADED_MAX) loaded.delete(loaded.keys().next().value as string);
  }
  return hit;
}

/** Evaluates a batch; trials run one after another (one invocation is one thread). */
export async function runTrialBatch(env: EdgeEnv, engine: Engine, req: BatchRequest): Promise<WireScored[]> {
  let l: Loaded;
  try {
    l = await load(env, engine, req.spec_key);
  } catch (e) {
    if (e instanceof OptimizeError) throw new ApiError(400, e.code, e.message, e.details);
    throw e;
  }
  if (req.winner) return [toWire(await scoreWinnerOos(l.study, l.runner, fromWire(req.winner)))];
  const out: WireScored[] = [];
  for (const t of req.trials ?? []) {
    if (!Number.isInteger(t.index) || t.index < 0 || t.index >= l.study.nTrials || typeof t.params !== "object")
      throw new ApiError(400, "INVALID_FIELD", "trials[] must be {index, params} of this study", { field: "trials" });
    out.push(toWire(await evaluateTrial(l.study, l.runner, t.index, t.params)));
  }
  return out;
}
