// Shared helpers of the checklist-*.test.ts files (one file per section of docs/spec/language.md, the language spec).
// Every script goes through run-both (interpret and compile must agree); test names start with the
// item number (section.item) and quote the item, so checklist-index.md can be checked against them.
import { expect } from "vitest";
import type { RunResult } from "../../src/core/result.js";
import { bars, runBoth, type BothOptions } from "../helpers/run-both.js";

export const N = 6;
export const data = bars(N);
export const closes = data.map((b) => b.close);
export const fill = <T>(v: T, n = N): T[] => Array(n).fill(v);

/** Runs and requires success; returns every plot by title. */
export async function plots(src: string, opts: BothOptions = {}, d = data): Promise<RunResult["series"]> {
  const r = await runBoth(src, d, opts);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error} ${JSON.stringify(r.diagnostics ?? [])}`);
  return r.series;
}

/** The first plot of a successful run. */
export async function first(src: string, opts: BothOptions = {}, d = data): Promise<RunResult["series"][string]> {
  return Object.values(await plots(src, opts, d))[0]!;
}

/** A check (compile-time) error: message, and the line/column of the first diagnostic. */
export async function checkError(src: string, re: RegExp, line: number, column?: number): Promise<RunResult> {
  const r = await runBoth(src, data);
  expect(r.error_kind, r.error).toBe("check");
  expect(r.error).toMatch(re);
  expect(r.diagnostics?.[0]?.line).toBe(line);
  if (column !== undefined) expect(r.diagnostics?.[0]?.column).toBe(column);
  return r;
}

/** A parse error at a line (and column). */
export async function parseError(src: string, re: RegExp, line: number, column?: number): Promise<RunResult> {
  const r = await runBoth(src, data);
  expect(r.error_kind, r.error).toBe("parse");
  expect(r.error).toMatch(re);
  expect(r.diagnostics?.[0]?.line).toBe(line);
  if (column !== undefined) expect(r.diagnostics?.[0]?.column).toBe(column);
  return r;
}

/** A runtime error: message and the bar it stopped on (plots hold the bars before it). */
export async function runtimeError(
  src: string,
  re: RegExp,
  bar: number,
  opts: BothOptions = {},
  d = data,
): Promise<RunResult> {
  const r = await runBoth(src, d, opts);
  expect(r.error_kind, r.error).toBe("runtime");
  expect(r.error).toMatch(re);
  expect(r.error_bar).toBe(bar);
  expect(r.error_bar_time).toBe(d[bar]!.time);
  return r;
}

/** A runtime error with its position: the line and column of the top-level statement that raised it. */
export async function runtimeErrorAt(
  src: string,
  re: RegExp,
  bar: number,
  line: number,
  column: number,
  opts: BothOptions = {},
  d = data,
): Promise<RunResult> {
  const r = await runtimeError(src, re, bar, opts, d);
  expect(r.diagnostics?.[0]).toMatchObject({ severity: "error", line, column });
  expect(r.diagnostics?.[0]?.message).toContain(`(bar ${bar})`);
  return r;
}

/** Numbers compared to 12 digits, everything else exactly. */
export function near(got: unknown[], want: unknown[]): void {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => {
    if (typeof w === "number" && typeof got[i] === "number") expect(got[i] as number).toBeCloseTo(w, 12);
    else expect(got[i]).toBe(w);
  });
}
