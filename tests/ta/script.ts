// Script-level helpers for the ta.* family tests: tiny hand-made bar sets and a runner that goes
// through the public Runtime in both modes (tests/helpers/run-both.ts) and returns the plots, with
// na as NaN so expectations can be written as plain numbers.
import { expect } from "vitest";
import type { Bar } from "../../src/core/result.js";
import { runBoth, v6 } from "../helpers/run-both.js";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

/** Bars from closes: open = close, high = close + 1, low = close - 1, volume given or 1. */
export function fromCloses(closes: number[], volumes?: number[]): Bar[] {
  return closes.map((c, i) => ({
    time: T0 + i * HOUR,
    open: c,
    high: c + 1,
    low: c - 1,
    close: c,
    volume: volumes?.[i] ?? 1,
  }));
}

/** Bars from [open, high, low, close, volume] rows. */
export function fromRows(rows: [number, number, number, number, number][]): Bar[] {
  return rows.map(([o, h, l, c, v], i) => ({ time: T0 + i * HOUR, open: o, high: h, low: l, close: c, volume: v }));
}

/** Runs a v6 indicator body on the bars (both modes, identical results required); plots by title, na = NaN. */
export async function plots(body: string, data: Bar[]): Promise<Record<string, number[]>> {
  const r = await runBoth(v6(body), data);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  const out: Record<string, number[]> = {};
  for (const [k, col] of Object.entries(r.series)) out[k] = col.map((v) => (v === null ? NaN : (v as number)));
  return out;
}

/** The run's error message (both modes must agree on it). */
export async function runError(body: string, data: Bar[]): Promise<string | undefined> {
  return (await runBoth(v6(body), data)).error;
}

/** Bit-equal series (NaN equals NaN). */
export function same(got: number[], want: number[]): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(got[i], want[i]) && !(got[i] !== got[i] && want[i] !== want[i])) {
      expect.fail(`bar ${i}: got ${got[i]}, want ${want[i]} (got ${JSON.stringify(got)})`);
    }
  }
}

/** Equal within `tol` relative (for results whose last digits depend on transcendental functions). */
export function close(got: number[], want: number[], tol = 1e-12): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    const ok = w !== w ? g !== g : Math.abs(g - w) <= tol * Math.max(1, Math.abs(w));
    if (!ok) expect.fail(`bar ${i}: got ${g}, want ${w} (got ${JSON.stringify(got)})`);
  }
}

export const NA = NaN;
