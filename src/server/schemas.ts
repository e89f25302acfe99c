// Request schemas of every route, fields in the documented order (service.md 2.1 to 2.4).

import type { FieldSpec, Schema } from "./validate.js";

export const MAX_LIBRARIES = 32;
export const MAX_BATCH_RUNS = 8;

const obj = () => ({});
const arr = () => [];

/** The optional fields /run and /run/batch share (after script/data, and inputs for /run). */
function runOptions(defaultMode: string): FieldSpec[] {
  return [
    { name: "symbol", type: "string", default: "CHART" },
    { name: "mode", type: "string", default: defaultMode },
  ];
}

const RUN_TAIL: FieldSpec[] = [
  { name: "profiler", type: "bool", default: false },
  { name: "libraries", type: "array", default: arr, max: MAX_LIBRARIES },
  { name: "timeout_seconds", type: "number", default: null },
  { name: "syminfo", type: "object", default: obj },
  { name: "timeframe", type: "string", default: null },
  { name: "data_feed", type: "object", default: obj },
  { name: "realtime", type: "object", default: obj },
  { name: "backtest_start", type: "number", default: null },
];

export function runSchema(defaultMode = "auto"): Schema {
  return [
    { name: "script", type: "string", required: true },
    { name: "data", type: "array", required: true },
    ...runOptions(defaultMode),
    { name: "inputs", type: "object", default: obj },
    ...RUN_TAIL,
  ];
}

/** /run/batch: `runs` and shared `data`, then /run's optional fields except top-level inputs. */
export function batchSchema(defaultMode = "auto"): Schema {
  return [
    { name: "runs", type: "array", required: true },
    { name: "data", type: "array", required: true },
    ...runOptions(defaultMode),
    ...RUN_TAIL,
  ];
}

export const OPTIMIZE_SCHEMA: Schema = [
  { name: "script", type: "string", required: true },
  // rows, or columns (arrays of numbers or base64 float64 strings: validate.ts decodeColumn)
  { name: "data", type: "bars", required: true },
  { name: "space", type: "object", required: true },
  { name: "n_trials", type: "int", default: 30, min: 1 },
  { name: "sampler", type: "string", default: "auto" },
  { name: "objective", type: "string", default: "composite" },
  { name: "validation", type: "object", default: () => ({ mode: "holdout" }) },
  { name: "min_trades", type: "int", default: 5, min: 0 },
  { name: "seed", type: "int", default: null },
  { name: "symbol", type: "string", default: "CHART" },
  { name: "oos_every_trial", type: "bool", default: true },
  { name: "fixed_inputs", type: "object", default: obj },
  { name: "libraries", type: "array", default: arr, max: MAX_LIBRARIES },
  { name: "parallelism", type: "int", default: 1, min: 1 },
];

export const BACKTEST_SCHEMA: Schema = [
  { name: "data", type: "array", required: true },
  { name: "fast", type: "int", default: 10, min: 1 },
  { name: "slow", type: "int", default: 20, min: 1 },
  { name: "initial_capital", type: "number", default: 10000 },
  { name: "commission_pct", type: "number", default: 0, min: 0 },
  { name: "slippage", type: "number", default: 0, min: 0 },
  { name: "allow_short", type: "bool", default: true },
];
