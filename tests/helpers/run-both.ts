// Runs a script through the public Runtime in interpret mode and in compile mode and requires
// identical results (numbers bit-identical, same events, logs, inputs, errors). A script the compile
// backend refuses runs interpret in "compile" mode too (result.mode says so); options that only the
// interpreter honours (the profiler) and imported libraries do the same. Every script test goes
// through here.
import { expect } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import type { Bar, RunOptions, RunResult, RuntimeOptions } from "../../src/core/result.js";

/** service.md 5's deterministic synthetic bars. */
export function bars(n: number): Bar[] {
  return syntheticBars(n);
}

/** Strips the per-run fields (run id, timings) that legitimately differ between two runs. */
function comparable(r: RunResult): unknown {
  const { run_id: _r, profile: _p, mode: _m, auto_backend: _a, compile_fallback_reason: _c, ...rest } = r;
  const events = rest.events.map(({ run_id: _x, ...e }) => e);
  return { ...rest, events };
}

export interface BothOptions extends RunOptions {
  symbol?: string;
  runtime?: RuntimeOptions;
}

export async function runBoth(source: string, data: Bar[] = bars(20), opts: BothOptions = {}): Promise<RunResult> {
  const { symbol, runtime, ...runOpts } = opts;
  const rt = new Runtime(symbol ?? "CHART", runtime ?? {});
  const a = await rt.run(source, data, { ...runOpts, mode: "interpret" });
  const b = await rt.run(source, data, { ...runOpts, mode: "compile" });
  expect(a.mode).toBe("interpret");
  expect(comparable(b)).toEqual(comparable(a));
  return a;
}

/** Runs and requires success; returns the series. */
export async function series(source: string, data?: Bar[], opts?: BothOptions): Promise<RunResult["series"]> {
  const r = await runBoth(source, data, opts);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error} ${JSON.stringify(r.diagnostics ?? [])}`);
  return r.series;
}

export const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;
export const v5 = (body: string, decl = "indicator('t')") => `//@version=5\n${decl}\n${body}\n`;

/**
 * `rt.run` in interpret mode and in compile mode, requiring identical results and that compile mode
 * really compiled (unless an option only the interpreter honours was given, which the fallback
 * reason names); returns the interpret result.
 */
export async function runModes(rt: Runtime, source: string, data: Bar[], options: RunOptions = {}): Promise<RunResult> {
  const a = await rt.run(source, data, { ...options, mode: "interpret" });
  const b = await rt.run(source, data, { ...options, mode: "compile" });
  if (b.mode !== "compile")
    expect(b.compile_fallback_reason ?? "", "compile mode fell back").toMatch(/profiler|import statements/);
  expect(comparable(b)).toEqual(comparable(a));
  return a;
}

/**
 * Interpret runs of one Runtime (kept closures from its second run on) give the compile backend's
 * series, run after run.
 */
export async function keptRunsMatchCompile(source: string, data: Bar[], runs = 3): Promise<void> {
  const want = await new Runtime().run(source, data, { mode: "compile" });
  const rt = new Runtime();
  for (let run = 0; run < runs; run++) {
    const got = await rt.run(source, data, { mode: "interpret" });
    expect(got.series).toEqual(want.series);
  }
}

/**
 * The generated drivers' sweep: one script part per body size in `sizes` and per place `at` of a
 * break or continue (after statement 0, 3, 10, 11, 12 or 15: around the twelve statements a driver
 * writes out), made by `part(id, n, at, what)`.
 */
export function breakContinueSweep(
  sizes: number[],
  part: (id: string, n: number, at: number, what: string) => string,
): string[] {
  const parts: string[] = [];
  for (const n of sizes)
    for (const at of [0, 3, 10, 11, 12, 15].filter((a) => a < n))
      for (const what of ["break", "continue"]) parts.push(part(`${n}_${at}_${what}`, n, at, what));
  return parts;
}
