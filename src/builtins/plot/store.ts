// The per-run store of plot-family outputs: one Float64Array column per output (numbers, 1/NaN for
// shape cells, packed colours for bgcolor/barcolor/fill), converted to result arrays at the end.
import type { PlotMeta } from "../../core/result.js";
import { colorToString } from "../../core/values.js";

export type CellKind = "number" | "flag" | "color";

export interface PlotOutput {
  key: string;
  cells: CellKind;
  col: Float64Array;
  meta: PlotMeta;
}

export class PlotStore {
  readonly outputs: PlotOutput[] = [];
  private readonly used = new Set<string>();
  private untitled = 0;

  constructor(
    readonly barCount: number,
    /** The declaration's overlay: plots go to the price pane unless force_overlay says otherwise. */
    readonly overlay: boolean,
  ) {}

  register(kind: string, title: string | null | undefined, cells: CellKind, meta: Omit<PlotMeta, "title" | "kind" | "index">): PlotOutput {
    let key: string;
    if (title === null || title === undefined || title === "") key = `plot_${this.untitled++}`;
    else {
      key = title;
      for (let n = 2; this.used.has(key); n++) key = `${title}_${n}`;
    }
    this.used.add(key);
    const out: PlotOutput = {
      key,
      cells,
      col: new Float64Array(this.barCount).fill(NaN),
      meta: { title: key, kind, index: this.outputs.length, ...meta },
    };
    this.outputs.push(out);
    return out;
  }

  /** Result `series` and `plot_meta` for the first `count` bars. */
  toResult(count: number): { series: Record<string, (number | string | boolean | null)[]>; plot_meta: Record<string, PlotMeta> } {
    const series: Record<string, (number | string | boolean | null)[]> = {};
    const plot_meta: Record<string, PlotMeta> = {};
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
    }
    return { series, plot_meta };
  }
}
