// The embedding client (`resin/web`'s createEngine): the chart app's in-browser engine for any page.
// Runs and optimize studies go to the same Comlink worker pool the app uses (web/src/engines/browser.ts,
// src/worker/): bars are handed to each worker once, transferred as Float64Array columns, and numeric
// plot columns come back transferred the same way. Nothing here knows about the app's UI.

import type { Bar, ColumnarBars, SymInfo } from "../../../src/core/result.js";
import { packBars, type PackedBars, type PackedRunResult } from "../../../src/worker/protocol.js";
import { contentKey, parseDataFile } from "../data/parse.js";
import { BrowserEngine } from "../engines/browser.js";
import type { DataSet, OptimizeProgress, OptimizeRequest, OptimizeResult, ParamSpec } from "../engines/types.js";

/** Bars as the page has them: rows of {time, open, high, low, close, volume?}, or columns. */
export type BarsInput = readonly Bar[] | ColumnarBars | PackedBars;

export interface RunOptions {
  /** The chart symbol the script sees as syminfo.tickerid (default "CHART"). */
  symbol?: string;
  /** Input overrides by input title. */
  inputs?: Record<string, unknown>;
  /** The symbol's description (mintick, timezone, session, currency, type). */
  syminfo?: SymInfo;
  /** strategy() properties overridden for this run, by parameter name. */
  strategy?: Record<string, unknown>;
  profiler?: boolean;
  /** "auto" (default), "interpret" or "compile". */
  mode?: string;
}

export interface OptimizeOptions {
  space: { params: ParamSpec[] };
  n_trials?: number;
  sampler?: string;
  objective?: string;
  validation?: OptimizeRequest["validation"];
  min_trades?: number;
  seed?: number;
  symbol?: string;
  fixed_inputs?: Record<string, unknown>;
  oos_every_trial?: boolean;
}

export interface ResinEngine {
  /** Runs `script` over `bars` in a worker; script errors come back in the result's `error`. */
  run(script: string, bars: BarsInput, options?: RunOptions): Promise<PackedRunResult>;
  /** An optimize study of a strategy's inputs, trials spread over the worker pool. */
  optimize(
    script: string,
    bars: BarsInput,
    options: OptimizeOptions,
    onProgress?: (p: OptimizeProgress) => void,
  ): Promise<OptimizeResult>;
  /** Stops what the engine is doing (in-flight calls reject with "cancelled"). */
  cancel(): void;
  /** Stops and releases the workers; the engine cannot be used afterwards. */
  terminate(): void;
}

export interface EngineOptions {
  /** Workers in the pool (default: one per core, at most 16). */
  workers?: number;
}

/** Bars from a CSV or JSON text (time,open,high,low,close[,volume]), validated as a run validates them. */
export function parseBars(text: string, name = "data.csv"): PackedBars {
  return parseDataFile(name, text);
}

/** Fetches and parses a CSV or JSON bar file. */
export async function fetchBars(url: string | URL, init?: RequestInit): Promise<PackedBars> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return parseBars(await res.text(), String(url).split("?")[0]);
}

export function createEngine(options: EngineOptions = {}): ResinEngine {
  const engine = new BrowserEngine(options.workers);
  // the same bars object is packed and hashed once (workers then cache its columns by the key)
  const sets = new WeakMap<object, DataSet>();
  const dataSet = (bars: BarsInput): DataSet => {
    let set = sets.get(bars);
    if (!set) {
      const packed = toPackedBars(bars);
      set = { key: contentKey(packed), name: "data", bars: packed };
      sets.set(bars, set);
    }
    return set;
  };
  let terminated = false;
  const live = () => {
    if (terminated) throw new Error("this engine was terminated");
  };
  return {
    run(script, bars, o = {}) {
      live();
      return engine.run({
        source: script,
        data: dataSet(bars),
        symbol: o.symbol ?? "CHART",
        inputs: o.inputs ?? {},
        profiler: o.profiler ?? false,
        mode: o.mode,
        syminfo: o.syminfo,
        strategy: o.strategy,
      });
    },
    optimize(script, bars, o, onProgress = () => {}) {
      live();
      // optional fields left out take the shared study's documented defaults (src/optimize/study.ts)
      const req = {
        ...o,
        script,
        data: dataSet(bars),
        symbol: o.symbol ?? "CHART",
        fixed_inputs: o.fixed_inputs ?? {},
      } as OptimizeRequest;
      return engine.optimize(req, onProgress);
    },
    cancel: () => engine.cancel(),
    terminate() {
      terminated = true;
      engine.pool.terminate();
    },
  };
}

/** The bars as six Float64Array columns (the same object when they already are). */
export function toPackedBars(b: BarsInput): PackedBars {
  const p = b as PackedBars;
  const packed =
    !Array.isArray(b) && [p.time, p.open, p.high, p.low, p.close, p.volume].every((c) => c instanceof Float64Array);
  return packed ? p : packBars(b);
}
