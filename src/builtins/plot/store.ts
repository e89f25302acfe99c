// The per-run store of plot-family outputs: one Float64Array column per output (numbers, 1/NaN for
// shape cells, packed colours for bgcolor/barcolor/fill), converted to result arrays when a result
// reads them (runtime/lazy-plots.ts: series, plots, plot_colors and plot_ohlc on first read).
// plotcandle/plotbar keep their open/high/low next to the close column; a colour argument that
// changes from bar to bar gets a colour column, allocated only on the first bar that differs. An
// output's column starts NaN, except where its call runs on every bar (a top-level call, given by the
// Runtime): each cell a result reads is written then, so the column is taken as it is.
import type { PlotMeta, PlotOhlc } from "../../core/result.js";
import { colorToString } from "../../core/values.js";
import { objectArray } from "../../core/shapes.js";

export type CellKind = "number" | "flag" | "color";

/**
 * One colour argument over the bars: the first call's value (packed, NaN = na) and, from the first
 * bar whose value differs, one packed colour per bar.
 */
export class ColorTrack {
  col: Float64Array | null = null;
  constructor(
    readonly first: number,
    private readonly bars: number,
  ) {}

  /** Records bar `bar`'s colour; costs one comparison while the colour stays the first one. */
  set(c: number, bar: number): void {
    if (this.col !== null) this.col[bar] = c;
    else if (c !== this.first && (c === c || this.first === this.first)) {
      // every earlier call had the first colour
      this.col = new Float64Array(this.bars).fill(this.first);
      this.col[bar] = c;
    }
  }
}

export interface OhlcColumns {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  wick: ColorTrack;
  border: ColorTrack;
}

export interface PlotOutput {
  key: string;
  cells: CellKind;
  col: Float64Array;
  meta: PlotMeta;
  /** The per-bar colour of plot/plotshape/plotchar/plotcandle/plotbar; null for the others. */
  color: ColorTrack | null;
  /** plotcandle/plotbar: open, high, low (the close is `col`) and the wick/border colours. */
  ohlc: OhlcColumns | null;
  /**
   * An empty object only this output holds: the column registry watches it rather than the output.
   * V8's minor GCs keep a registry's targets alive, so a registered output (with its colour and
   * open/high/low columns) was promoted and lived until a mark-compact; the token alone is now.
   */
  readonly token: object;
}

/** A colour argument as a packed number (na and omitted are NaN). */
export const packedColor = (x: unknown): number => (typeof x === "number" ? x : NaN);

/** A shape's cell (plotshape, plotchar): 1 where the series is true or a non-zero number, else NaN. */
export const flagCell = (x: unknown): number => (x === true || (typeof x === "number" && x === x && x !== 0) ? 1 : NaN);

/**
 * Plot columns of finished runs, kept for the next run with the same bar count (a script run again
 * and again over the same bars, an optimize study, a bench, gets its columns back instead of
 * allocating and zeroing new ones and leaving the old ones to the garbage collector). A column comes
 * back when its output object is collected (the output's token, which nothing else holds): every
 * reader of a column (the plot builtins, the result's lazy series, alert placeholders) reaches it
 * through that object, so nothing can still read it then. Bounded in bytes; where FinalizationRegistry is missing, columns are simply new.
 * The registry holds each registered column until its callback runs, which is never before the
 * current job ends: runs awaited one after another in a loop (a benchmark, an in-process study) are
 * one job, so the columns registered and not yet handed back are bounded too (past the bound a
 * column is not registered and goes with its output).
 */
const spareColumns = new Map<number, Float64Array[]>();
let spareBytes = 0;
const MAX_SPARE_BYTES = 64 * 1024 * 1024;
let pendingBytes = 0;
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
const reclaim =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ col: Float64Array; bytes: number }>(({ col, bytes }) => {
        pendingBytes -= bytes;
        // (a column whose buffer was transferred away has length 0)
        if (col.length === 0 || spareBytes + col.byteLength > MAX_SPARE_BYTES) return;
        let list = spareColumns.get(col.length);
        if (!list) spareColumns.set(col.length, (list = []));
        list.push(col);
        spareBytes += col.byteLength;
      })
    : null;

/** Columns a run took back from the spare ones (tests assert reuse happens). */
export const plotColumnReuse = { n: 0 };

/**
 * A column of `n` cells (a spare one of that length when there is one): NaN, or left as they are
 * when the output's call site writes a cell on every bar anyway (`written`).
 */
function takeColumn(n: number, written: boolean): Float64Array {
  const col = spareColumns.get(n)?.pop();
  if (col === undefined) return written ? new Float64Array(n) : new Float64Array(n).fill(NaN);
  spareBytes -= col.byteLength;
  plotColumnReuse.n++;
  return written ? col : col.fill(NaN);
}

const NO_SITES: ReadonlySet<number> = new Set();

export class PlotStore {
  readonly outputs: PlotOutput[] = objectArray(); // (object elements kind: core/shapes.ts)
  private readonly used = new Set<string>();
  private untitled = 0;
  /**
   * Outputs by the call site that registered them. A plot is a declaration of the script: a site
   * registers once per run, also when a realtime tick's rollback (src/runtime/rerun.ts) took the
   * site's state back to before its first call (the first bar itself realtime, several ticks).
   */
  private readonly bySite = new Map<number, PlotOutput>();

  constructor(
    readonly barCount: number,
    /** The declaration's overlay: plots go to the price pane unless force_overlay says otherwise. */
    readonly overlay: boolean,
    /**
     * Call sites that run on every bar from the first (check/once-sites.ts everyBarSites): an output
     * of one of them writes its cell on every bar the run executes, and results read only those
     * cells, so its column is not filled with NaN first (a pass over every bar, per plot, per run).
     */
    private readonly everyBar: ReadonlySet<number> = NO_SITES,
  ) {}

  /** The output call site `site` registered earlier in this run, if any. */
  ofSite(site: number): PlotOutput | undefined {
    return this.bySite.get(site);
  }

  register(
    kind: string,
    title: string | null | undefined,
    cells: CellKind,
    meta: Omit<PlotMeta, "title" | "kind" | "index">,
    site?: number,
  ): PlotOutput {
    let key: string;
    if (title === null || title === undefined || title === "") key = `plot_${this.untitled++}`;
    else {
      key = title;
      for (let n = 2; this.used.has(key); n++) key = `${title}_${n}`;
    }
    this.used.add(key);
    const col = takeColumn(this.barCount, site !== undefined && this.everyBar.has(site));
    const out: PlotOutput = {
      key,
      cells,
      col,
      meta: { title: key, kind, index: this.outputs.length, ...meta },
      color: null,
      ohlc: null,
      token: {},
    };
    if (reclaim !== null && pendingBytes + col.byteLength <= MAX_PENDING_BYTES) {
      reclaim.register(out.token, { col, bytes: col.byteLength });
      pendingBytes += col.byteLength;
    }
    this.outputs.push(out);
    if (site !== undefined) this.bySite.set(site, out);
    return out;
  }

  /** Starts tracking `o`'s colour argument from its first value. */
  trackColor(o: PlotOutput, first: unknown): ColorTrack {
    return (o.color = new ColorTrack(packedColor(first), this.barCount));
  }

  /** Gives a plotcandle/plotbar output its open/high/low columns and wick/border colour tracks. */
  trackOhlc(o: PlotOutput, wick: unknown, border: unknown): OhlcColumns {
    return (o.ohlc = {
      open: this.column(),
      high: this.column(),
      low: this.column(),
      wick: new ColorTrack(packedColor(wick), this.barCount),
      border: new ColorTrack(packedColor(border), this.barCount),
    });
  }

  private column(): Float64Array {
    return new Float64Array(this.barCount).fill(NaN);
  }

  /** Result `series`, `plot_meta` and, when any output has them, `plot_ohlc` / `plot_colors`, for the first `count` bars. */
  toResult(count: number): {
    series: Record<string, (number | string | boolean | null)[]>;
    plot_meta: Record<string, PlotMeta>;
    plot_ohlc?: Record<string, PlotOhlc>;
    plot_colors?: Record<string, (string | null)[]>;
  } {
    const series: Record<string, (number | string | boolean | null)[]> = {};
    const plot_meta: Record<string, PlotMeta> = {};
    let plot_ohlc: Record<string, PlotOhlc> | undefined;
    let plot_colors: Record<string, (string | null)[]> | undefined;
    const names = new Map<number, string | null>();
    for (const o of this.outputs) {
      const cells = new Array<number | string | boolean | null>(count);
      const col = o.col;
      for (let i = 0; i < count; i++) {
        const x = col[i]!;
        if (o.cells === "number") cells[i] = x === x ? x : null;
        else if (o.cells === "flag") cells[i] = x === x ? true : null;
        else cells[i] = colorToString(x);
      }
      series[o.key] = cells;
      plot_meta[o.key] = o.meta;
      if (o.color?.col) (plot_colors ??= {})[o.key] = colorCells(o.color.col, col, count, names);
      if (o.ohlc) {
        const entry: PlotOhlc = {
          open: numbers(o.ohlc.open, count),
          high: numbers(o.ohlc.high, count),
          low: numbers(o.ohlc.low, count),
          close: numbers(col, count),
        };
        if (o.ohlc.wick.col) entry.wickcolor = colorCells(o.ohlc.wick.col, col, count, names);
        if (o.ohlc.border.col) entry.bordercolor = colorCells(o.ohlc.border.col, col, count, names);
        (plot_ohlc ??= {})[o.key] = entry;
      }
    }
    const out: ReturnType<PlotStore["toResult"]> = { series, plot_meta };
    if (plot_ohlc) out.plot_ohlc = plot_ohlc;
    if (plot_colors) out.plot_colors = plot_colors;
    return out;
  }
}

function numbers(col: Float64Array, count: number): (number | null)[] {
  const out = new Array<number | null>(count);
  for (let i = 0; i < count; i++) {
    const x = col[i]!;
    out[i] = x === x ? x : null;
  }
  return out;
}

/** Colour strings per bar; null where the colour is na or the output has no value on that bar. */
function colorCells(
  colors: Float64Array,
  values: Float64Array,
  count: number,
  names: Map<number, string | null>,
): (string | null)[] {
  const out = new Array<string | null>(count);
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    const c = colors[i]!;
    if (v !== v || c !== c) {
      out[i] = null;
      continue;
    }
    let s = names.get(c);
    if (s === undefined) names.set(c, (s = colorToString(c)));
    out[i] = s;
  }
  return out;
}
