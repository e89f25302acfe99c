// Shared by the compile tests: run a script in interpret and in compile mode on the same bars and
// compare every field, numbers with Object.is (NaN equals NaN, -0 differs from 0).
import { expect } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { parse } from "../../src/lang/index.js";
import { check } from "../../src/check/index.js";
import { registry } from "../../src/builtins/index.js";
import type { RExpr, ResolvedProgram } from "../../src/check/ir.js";
import { HoistPlan } from "../../src/check/hoist-plan.js";
import type { OhlcvInput, RunOptions, RunResult } from "../../src/core/result.js";

/** The first path at which a and b differ (numbers by Object.is), or null when identical. */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | null {
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) ? null : `${path}: ${a} vs ${b}`;
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object")
    return `${path}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a as object),
    kb = Object.keys(b as object);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i]))
    return `${path}: keys [${ka.join(",")}] vs [${kb.join(",")}]`;
  for (const k of ka) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

/** The fields that legitimately differ between two runs of the same script. */
export function comparable(r: RunResult): Record<string, unknown> {
  const { run_id: _r, profile: _p, mode: _m, auto_backend: _a, compile_fallback_reason: _c, ...rest } = r;
  return { ...rest, events: rest.events.map(({ run_id: _x, ...e }) => e) };
}

export interface Pair {
  interpret: RunResult;
  compile: RunResult;
  difference: string | null;
}

export async function runPair(
  source: string,
  data: OhlcvInput,
  opts: RunOptions = {},
  rt = new Runtime(),
): Promise<Pair> {
  const interpret = await rt.run(source, data, { ...opts, mode: "interpret" });
  const compile = await rt.run(source, data, { ...opts, mode: "compile" });
  return { interpret, compile, difference: firstDifference(comparable(interpret), comparable(compile)) };
}

/** The checked program of a script that must check cleanly. */
export function program(src: string): ResolvedProgram {
  const c = check(parse(src).ast, registry);
  if (!c.program) throw new Error(JSON.stringify(c.diagnostics));
  return c.program;
}

/** The name of a hoisted candidate: a call's or bar variable's name, else its kind (`ucall`). */
export function hoistName(e: RExpr): string {
  return e.k === "call" ? e.name : e.k === "bvar" ? e.def.name : e.k;
}

/** What the hoist plan of a script that checks cleanly hoists (HoistPlan.candidates, what both backends precompute), by name. */
export function hoistedNames(src: string): string[] {
  return new HoistPlan(program(src)).candidates.map(hoistName);
}

/**
 * Runs `source` over each bar set with `inputs` in the per-bar interpreter (a profiler run never
 * precomputes) and in both modes, and requires both modes to keep their mode and give the per-bar
 * result field for field; `mustTrade`: the per-bar run has trades (a strategy that never trades
 * checks little). For the whole-series passes' tests.
 */
export async function equalsPerBar(
  rt: Runtime,
  source: string,
  barSets: readonly OhlcvInput[],
  inputs: Record<string, unknown>,
  mustTrade = false,
): Promise<void> {
  for (const bars of barSets) {
    const perBar = await rt.run(source, bars, { mode: "interpret", profiler: true, inputs });
    if (mustTrade) expect(perBar.strategy?.trades.length ?? 0, "the script trades").toBeGreaterThan(0);
    for (const mode of ["compile", "interpret"] as const) {
      const r = await rt.run(source, bars, { mode, inputs });
      expect(r.mode).toBe(mode);
      expect(firstDifference(comparable(r), comparable(perBar)), `${mode} ${JSON.stringify(inputs)}`).toBeNull();
    }
  }
}
