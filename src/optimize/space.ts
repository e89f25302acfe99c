// The parameter space of a study: validation of the user's `space` and the per-axis operations the
// samplers need (random draw, grid points, snapping, mapping to [0, 1] for TPE).

import { OptimizeError } from "./errors.js";
import type { Rng } from "./prng.js";

export type ParamKind = "int" | "float" | "bool" | "categorical";
export type ParamValue = number | boolean | string;
export type Params = Record<string, ParamValue>;

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  min?: number;
  max?: number;
  step?: number;
  choices?: ParamValue[];
}

export interface SpaceSpec {
  params: ParamSpec[];
}

/** Points of one grid axis: a float axis without step gets this many. */
export const GRID_FLOAT_POINTS = 8;
/** An axis never contributes more than this many grid points. */
export const GRID_AXIS_CAP = 16;

const KINDS: readonly ParamKind[] = ["int", "float", "bool", "categorical"];

function invalid(message: string, param?: string): never {
  throw new OptimizeError("INVALID_SPACE", message, param === undefined ? {} : { param });
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** Checks a raw `space` value and returns a normalised copy; throws INVALID_SPACE. */
export function parseSpace(raw: unknown): ParamSpec[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) invalid("space must be an object {params: [...]}");
  const params = (raw as { params?: unknown }).params;
  if (!Array.isArray(params) || params.length === 0) invalid("space.params must be a non-empty array");
  const seen = new Set<string>();
  return params.map((p, i) => {
    if (p === null || typeof p !== "object" || Array.isArray(p)) invalid(`space.params[${i}] must be an object`);
    const { name, kind, min, max, step, choices } = p as Record<string, unknown>;
    if (typeof name !== "string" || name === "") invalid(`space.params[${i}].name must be a non-empty string`);
    if (seen.has(name)) invalid(`duplicate parameter name '${name}'`, name);
    seen.add(name);
    if (typeof kind !== "string" || !KINDS.includes(kind as ParamKind)) {
      invalid(
        `parameter '${name}': unknown kind ${JSON.stringify(kind)} (expected int, float, bool or categorical)`,
        name,
      );
    }
    if (kind === "bool") return { name, kind: "bool" };
    if (kind === "categorical") {
      if (!Array.isArray(choices) || choices.length === 0)
        invalid(`parameter '${name}': choices must be a non-empty array`, name);
      for (const c of choices) {
        if (!(typeof c === "string" || typeof c === "boolean" || isFiniteNumber(c))) {
          invalid(`parameter '${name}': choices must be strings, numbers or booleans`, name);
        }
      }
      return { name, kind: "categorical", choices: [...(choices as ParamValue[])] };
    }
    if (!isFiniteNumber(min) || !isFiniteNumber(max))
      invalid(`parameter '${name}': min and max are required numbers`, name);
    if (min >= max) invalid(`parameter '${name}': min (${min}) must be below max (${max})`, name);
    if (step !== undefined && step !== null && (!isFiniteNumber(step) || step <= 0)) {
      invalid(`parameter '${name}': step must be a positive number`, name);
    }
    if (kind === "int" && (!Number.isInteger(min) || !Number.isInteger(max))) {
      invalid(`parameter '${name}': int bounds must be integers`, name);
    }
    const spec: ParamSpec = { name, kind: kind as ParamKind, min, max };
    if (isFiniteNumber(step)) spec.step = kind === "int" ? Math.max(1, Math.round(step)) : step;
    return spec;
  });
}

/** The effective step of a numeric axis (int axes step by 1 unless told otherwise), or 0 for none. */
function stepOf(p: ParamSpec): number {
  if (p.step !== undefined) return p.step;
  return p.kind === "int" ? 1 : 0;
}

/** Number of step-grid cells of a stepped numeric axis. */
function stepCount(p: ParamSpec, step: number): number {
  return Math.floor(((p.max as number) - (p.min as number)) / step + 1e-9) + 1;
}

/** Snaps a numeric value onto the axis (its step grid, or its bounds). */
export function snap(p: ParamSpec, x: number): number {
  const lo = p.min as number;
  const hi = p.max as number;
  const step = stepOf(p);
  let v = Math.min(hi, Math.max(lo, x));
  if (step > 0) {
    const k = Math.min(stepCount(p, step) - 1, Math.max(0, Math.round((v - lo) / step)));
    v = lo + k * step;
    // Keep decimal steps clean (0.1 + 0.2 style noise) so inputs print as the user wrote them.
    v = Number(v.toPrecision(12));
  }
  return p.kind === "int" ? Math.round(v) : v;
}

/** One independent uniform draw (stepped axes land on the step grid). */
export function sampleAxis(p: ParamSpec, rng: Rng): ParamValue {
  switch (p.kind) {
    case "bool":
      return rng.next() < 0.5;
    case "categorical":
      return (p.choices as ParamValue[])[rng.int(0, (p.choices as ParamValue[]).length - 1)] as ParamValue;
    default: {
      const step = stepOf(p);
      if (step > 0) return snap(p, (p.min as number) + rng.int(0, stepCount(p, step) - 1) * step);
      return (p.min as number) + rng.next() * ((p.max as number) - (p.min as number));
    }
  }
}

/** One independent draw per axis. */
export function randomParams(space: ParamSpec[], rng: Rng): Params {
  const out: Params = {};
  for (const p of space) out[p.name] = sampleAxis(p, rng);
  return out;
}

/** The grid points of one axis, in ascending order, at most GRID_AXIS_CAP of them. */
export function gridAxis(p: ParamSpec): ParamValue[] {
  if (p.kind === "bool") return [false, true];
  if (p.kind === "categorical") return capAxis([...(p.choices as ParamValue[])]);
  const lo = p.min as number;
  const hi = p.max as number;
  const step = stepOf(p);
  if (step > 0) {
    const n = stepCount(p, step);
    if (n <= GRID_AXIS_CAP) return Array.from({ length: n }, (_, k) => snap(p, lo + k * step));
    // Too many cells: spread GRID_AXIS_CAP points over the step grid, ends included.
    const pts = Array.from({ length: GRID_AXIS_CAP }, (_, j) =>
      snap(p, lo + Math.round((j * (n - 1)) / (GRID_AXIS_CAP - 1)) * step),
    );
    return [...new Set(pts)];
  }
  return Array.from({ length: GRID_FLOAT_POINTS }, (_, j) => lo + ((hi - lo) * j) / (GRID_FLOAT_POINTS - 1));
}

function capAxis<T>(values: T[]): T[] {
  if (values.length <= GRID_AXIS_CAP) return values;
  return Array.from(
    { length: GRID_AXIS_CAP },
    (_, j) => values[Math.round((j * (values.length - 1)) / (GRID_AXIS_CAP - 1))] as T,
  );
}

/** Number of grid cells (product of the axis sizes). */
export function gridSize(space: ParamSpec[]): number {
  return space.reduce((n, p) => n * gridAxis(p).length, 1);
}
