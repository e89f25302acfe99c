// Validation slicing: which bar ranges a trial runs on and which closed trades it scores.
// Train and test are separate runs over bar slices (not trade filters on one run); a test run may
// start `warmup_bars` earlier so indicators are primed, but only trades closed inside the test
// window count.

import { OptimizeError } from "./errors.js";

export type ValidationMode = "holdout" | "walk-forward" | "in-sample";
export const VALIDATION_MODES: readonly ValidationMode[] = ["holdout", "walk-forward", "in-sample"];

export const HOLDOUT_FRAC_DEFAULT = 0.3;
export const HOLDOUT_FRAC_MIN = 0.05;
export const HOLDOUT_FRAC_MAX = 0.8;
export const IN_SAMPLE_WARNING = "in-sample results overfit; prefer holdout";

export interface ValidationSpec {
  mode: ValidationMode;
  holdout_frac: number | null;
  train_bars: number | null;
  test_bars: number | null;
  step_bars: number | null;
  warmup_bars: number;
}

/** A bar range [start, end) that is run, and the part of it [scoreFrom, end) whose closed trades count. */
export interface Slice {
  start: number;
  end: number;
  scoreFrom: number;
}

export interface Plan {
  spec: ValidationSpec;
  /** The in-sample run. */
  train: Slice;
  /** Out-of-sample runs (none for in-sample). */
  tests: Slice[];
  /** Folds for the engine-run estimate: walk-forward folds, else 1. */
  folds: number;
}

function bad(message: string): never {
  throw new OptimizeError("INVALID_VALIDATION", message);
}

function optionalCount(raw: Record<string, unknown>, key: string, min: number): number | null {
  const v = raw[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) bad(`validation.${key} must be an integer >= ${min}`);
  return v;
}

/** Checks a raw `validation` object (null/undefined -> holdout defaults). */
export function parseValidation(raw: unknown): ValidationSpec {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) bad("validation must be an object");
  const r = raw as Record<string, unknown>;
  const mode = r.mode ?? "holdout";
  if (typeof mode !== "string" || !VALIDATION_MODES.includes(mode as ValidationMode)) {
    bad(`validation.mode must be one of ${VALIDATION_MODES.join(", ")}`);
  }
  let frac: number | null = null;
  if (r.holdout_frac !== undefined && r.holdout_frac !== null) {
    if (
      typeof r.holdout_frac !== "number" ||
      !Number.isFinite(r.holdout_frac) ||
      r.holdout_frac <= 0 ||
      r.holdout_frac >= 1
    ) {
      bad("validation.holdout_frac must be a number between 0 and 1");
    }
    frac = r.holdout_frac;
  }
  const known = new Set(["mode", "holdout_frac", "train_bars", "test_bars", "step_bars", "warmup_bars"]);
  const unknown = Object.keys(r)
    .filter((k) => !known.has(k))
    .sort();
  if (unknown.length) bad(`unknown validation fields: ${unknown.join(", ")}`);
  const spec: ValidationSpec = {
    mode: mode as ValidationMode,
    holdout_frac:
      mode === "holdout" ? Math.min(HOLDOUT_FRAC_MAX, Math.max(HOLDOUT_FRAC_MIN, frac ?? HOLDOUT_FRAC_DEFAULT)) : null,
    train_bars: optionalCount(r, "train_bars", 1),
    test_bars: optionalCount(r, "test_bars", 1),
    step_bars: optionalCount(r, "step_bars", 1),
    warmup_bars: optionalCount(r, "warmup_bars", 0) ?? 0,
  };
  if (spec.mode === "walk-forward") {
    if (spec.train_bars === null || spec.test_bars === null) bad("walk-forward needs train_bars and test_bars");
    spec.step_bars ??= spec.test_bars;
  } else {
    spec.train_bars = null;
    spec.test_bars = null;
    spec.step_bars = null;
  }
  return spec;
}

function testSlice(start: number, end: number, warmup: number): Slice {
  return { start: Math.max(0, start - warmup), end, scoreFrom: start };
}

/** Walk-forward fold starts: s = train, train + step, ... while s + test <= n. */
export function walkForwardStarts(n: number, train: number, test: number, step: number): number[] {
  const out: number[] = [];
  for (let s = train; s + test <= n; s += step) out.push(s);
  return out;
}

/** The slices for `n` bars; throws INVALID_VALIDATION when they cannot be formed. */
export function planValidation(spec: ValidationSpec, n: number): Plan {
  if (spec.mode === "in-sample") {
    if (n < 1) bad("no bars to run");
    return { spec, train: { start: 0, end: n, scoreFrom: 0 }, tests: [], folds: 1 };
  }
  if (spec.mode === "holdout") {
    if (n < 4) bad(`holdout needs at least 4 bars (got ${n})`);
    const testBars = Math.min(n - 1, Math.max(1, Math.round(n * (spec.holdout_frac as number))));
    const split = n - testBars;
    return {
      spec,
      train: { start: 0, end: split, scoreFrom: 0 },
      tests: [testSlice(split, n, spec.warmup_bars)],
      folds: 1,
    };
  }
  const train = spec.train_bars as number;
  const test = spec.test_bars as number;
  const starts = walkForwardStarts(n, train, test, spec.step_bars as number);
  if (starts.length === 0) bad(`walk-forward window does not fit: train_bars ${train} + test_bars ${test} > ${n} bars`);
  const last = starts[starts.length - 1] as number;
  // Folds are anchored at bar 0, so the last fold's train range contains every earlier one: it is
  // the single in-sample run; each fold contributes one out-of-sample run.
  return {
    spec,
    train: { start: 0, end: last, scoreFrom: 0 },
    tests: starts.map((s) => testSlice(s, s + test, spec.warmup_bars)),
    folds: starts.length,
  };
}
