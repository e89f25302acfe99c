// A run result's plot fields (`series`, `plots` and, where the run has them, `plot_ohlc` and
// `plot_colors`) as the contract's arrays, built on first read: until then the plot and colour
// columns stay Float64Arrays, so a caller that reads a few plots (or none) does not pay for boxing
// every cell of every plot into a heap number, nor for a colour string per bar of every plot
// coloured per bar. The first read or write of any of them converts them all and turns every
// accessor into a plain data property; JSON.stringify, structured clone (workers), spreads and
// Object.keys/entries see ordinary enumerable properties either way.
//
// The accessors hold nothing of the run: one getter and setter per key name, shared by every result,
// find the pending conversion in the object itself (under a non-enumerable symbol, which JSON,
// structured clone, spreads and Object.keys leave out). V8 keeps a property's accessor pair in its old
// generation until a mark-compact: accessors that were the run's own closures held the run's plot
// store through every minor GC, so each plot run's columns and outputs were copied and promoted.

import type { RunResult } from "../core/result.js";
import type { PlotStore } from "../builtins/plot/store.js";
import { dataProperty, defineAccessors, hiddenProperty, sharedAccessors } from "../core/lazy.js";

type Built = ReturnType<PlotStore["toResult"]>;

/** The conversion pending on a result and on its `series` object. */
const PENDING = Symbol("resin.lazyPlots");

/** A run's plot store until a result reads its plots; then nothing (the fields are data). */
class PendingPlots {
  constructor(
    private r: RunResult | null,
    private series: RunResult["series"] | null,
    private plots: PlotStore | null,
    private readonly count: number,
    private readonly keys: string[],
    private readonly shape: Built,
  ) {}

  /** Converts every plot field into a data property (the first read or write of any of them). */
  settle(): void {
    const { r, series, plots } = this;
    if (r === null || series === null || plots === null) return;
    this.r = this.series = this.plots = null;
    const done = plots.toResult(this.count);
    for (const k of this.keys) dataProperty(series, k, done.series[k]);
    if (this.shape.plot_ohlc) dataProperty(r, "plot_ohlc", done.plot_ohlc);
    if (this.shape.plot_colors) dataProperty(r, "plot_colors", done.plot_colors);
    dataProperty(r, "plots", done.series[this.keys[0]!]);
  }
}

/**
 * The accessor pairs by key name, kept for the next run (a script run again shows the same plot
 * titles), for at most MAX_SHARED_KEYS names (titles are the scripts').
 */
const MAX_SHARED_KEYS = 4096;
const settleOnAccess = sharedAccessors<string>(
  (key) => ({
    get(this: object): unknown {
      (this as { [PENDING]?: PendingPlots })[PENDING]?.settle();
      // settled: the key is a data property now
      return (this as Record<string, unknown>)[key];
    },
    set(this: object, value: unknown): void {
      (this as { [PENDING]?: PendingPlots })[PENDING]?.settle();
      (this as Record<string, unknown>)[key] = value;
    },
  }),
  MAX_SHARED_KEYS,
);

function lazy(obj: object, key: string): void {
  defineAccessors(obj, key, settleOnAccess(key));
}

/**
 * Gives `r` its plot fields, converted from `plots` (the first `count` bars) on first read. `keys`
 * and `shape` are the store's plot keys and `toResult(0)` (which optional fields the run has).
 */
export function lazyPlots(r: RunResult, plots: PlotStore, count: number, keys: string[], shape: Built): void {
  const series: RunResult["series"] = {};
  const pending = new PendingPlots(r, series, plots, count, keys, shape);
  hiddenProperty(series, PENDING, pending);
  hiddenProperty(r, PENDING, pending);
  for (const k of keys) lazy(series, k);
  r.series = series;
  if (shape.plot_ohlc) lazy(r, "plot_ohlc");
  if (shape.plot_colors) lazy(r, "plot_colors");
  lazy(r, "plots");
}
