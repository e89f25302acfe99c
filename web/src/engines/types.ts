// One interface for every place a script can run. The app talks only to `Engine`; switching between
// the in-browser worker pool, the HTTP server and the edge worker changes nothing else.

import type { SymInfo } from "../../../src/core/result.js";
import type { PackedBars, PackedRunResult } from "../../../src/worker/protocol.js";

export type EngineId = "browser" | "http" | "edge";

/** A loaded data set: `key` identifies its content so workers cache it once. */
export interface DataSet {
  key: string;
  name: string;
  bars: PackedBars;
}

export interface EngineRunRequest {
  source: string;
  data: DataSet;
  symbol: string;
  inputs: Record<string, unknown>;
  profiler: boolean;
  mode?: string;
  /** The symbol's description (tick size, time zone, session, currency, type). */
  syminfo?: SymInfo;
  /** strategy() properties overridden for this run (the Properties tab), by parameter name. */
  strategy?: Record<string, unknown>;
  /** Run bars [from, to) of the data set only (bar replay: the bars revealed so far). */
  slice?: [number, number];
  /**
   * Realtime evaluation (service.md 1.4, the runtime's realtimeFromBar/realtimeTicks): bars from
   * `fromBar` (within the slice) on are realtime, each walked through `ticks` ticks.
   */
  realtime?: { fromBar: number; ticks: number };
}

export interface ParamSpec {
  name: string;
  kind: "int" | "float" | "bool" | "categorical";
  min?: number;
  max?: number;
  step?: number;
  choices?: unknown[];
}

/** The /optimize body (service.md 2.3) without `data`, which comes from the DataSet. */
export interface OptimizeRequest {
  script: string;
  data: DataSet;
  space: { params: ParamSpec[] };
  n_trials: number;
  sampler: string;
  objective: string;
  validation: {
    mode: string;
    holdout_frac?: number;
    train_bars?: number;
    test_bars?: number;
    step_bars?: number;
    warmup_bars?: number;
  };
  min_trades: number;
  seed?: number;
  symbol: string;
  fixed_inputs: Record<string, unknown>;
  /** Score every trial out of sample too (else only the best is). */
  oos_every_trial?: boolean;
}

/** Trial and study results have the shapes of the shared optimize module (also the /optimize body). */
export type { TrialRecord, OptimizeResult } from "../../../src/optimize/index.js";
import type { TrialRecord, OptimizeResult } from "../../../src/optimize/index.js";

export interface OptimizeProgress {
  done: number;
  total: number;
  trial?: TrialRecord;
}

export interface Engine {
  readonly id: EngineId;
  readonly label: string;
  run(req: EngineRunRequest): Promise<PackedRunResult>;
  optimize(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void): Promise<OptimizeResult>;
  /** A study of this script on this data may follow: get ready in the background (optional). */
  prepareOptimize?(req: Pick<OptimizeRequest, "script" | "data" | "symbol">): void;
  /** Stops what this engine is doing (in-flight runs reject with a cancellation error). */
  cancel(): void;
}

/** Raised for transport or request failures (script errors come back inside the result instead). */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "EngineError";
  }
}
