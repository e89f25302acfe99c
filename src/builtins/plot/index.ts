// The plot family: plot, plotshape, plotchar, plotarrow, plotbar, plotcandle, hline, fill, bgcolor,
// barcolor. Each call site registers one output in ctx.ext.plots on its first call and writes its
// cell for the current bar on every call; the colour argument of plot/plotshape/plotchar/plotcandle/
// plotbar is tracked per bar (a column only once it changes), plotcandle/plotbar also write o/h/l.
import { CATALOG } from "../../catalog/index.js";
import { colorToString } from "../../core/values.js";
import type { BuiltinImpl, BuiltinTable, CallSite, ExecContext } from "../types.js";
import { PlotStore, flagCell, packedColor, type CellKind, type PlotOutput } from "./store.js";

export { PlotStore } from "./store.js";

function store(ctx: ExecContext): PlotStore {
  let s = ctx.ext.plots as PlotStore | undefined;
  if (!s) {
    s = new PlotStore(ctx.barCount, false);
    ctx.ext.plots = s;
  }
  return s;
}

/** Parameter positions of a builtin (the `args` order of src/builtins/types.ts). */
function params(name: string): Record<string, number> {
  const out: Record<string, number> = {};
  CATALOG.functions[name]!.params.forEach((p, i) => {
    out[p] = i;
  });
  return out;
}

const color = (x: unknown): string | null | undefined => (typeof x === "number" ? colorToString(x) : undefined);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === "number" && x === x ? x : undefined);

function pane(ctx: ExecContext, force: unknown): "overlay" | "own" {
  return force === true || store(ctx).overlay ? "overlay" : "own";
}

function displayName(d: unknown): string | undefined {
  if (typeof d !== "number") return undefined;
  if (d === 0) return "none";
  if (d === 31) return "all";
  const parts: string[] = [];
  if (d & 1) parts.push("pane");
  if (d & 2) parts.push("data_window");
  if (d & 4) parts.push("status_line");
  if (d & 8) parts.push("price_scale");
  if (d & 16) parts.push("pine_screener");
  return parts.join("+");
}

function clean<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/**
 * A builtin that registers on first call (`meta` from the first call's args) and writes `cell`;
 * with `colorParam`, that argument's colour is recorded per bar too.
 */
function output(
  name: string,
  cells: CellKind,
  meta: (a: unknown[], p: Record<string, number>, ctx: ExecContext) => Record<string, unknown>,
  cell: (a: unknown[], p: Record<string, number>) => number,
  result: (o: PlotOutput) => unknown = (o) => o.meta.index,
  colorParam?: string,
): BuiltinImpl {
  const p = params(name);
  const pc = colorParam === undefined ? -1 : p[colorParam]!;
  const register = (ctx: ExecContext, a: unknown[], site: CallSite): PlotOutput => {
    const s = store(ctx);
    // (registered before a realtime tick's rollback: the same output)
    const known = s.ofSite(site.id);
    if (known) return (site.state = known);
    const title = a[p.title!];
    const o = s.register(
      name,
      typeof title === "string" ? title : null,
      cells,
      clean(meta(a, p, ctx)) as never,
      site.id,
    );
    if (pc >= 0) s.trackColor(o, a[pc]);
    site.state = o;
    return o;
  };
  if (cells === "number" && p.series === 0 && pc >= 0) {
    // plot: the hot path writes the first argument straight into the column
    return (ctx, a, site: CallSite) => {
      const o = (site.state as PlotOutput | undefined) ?? register(ctx, a, site);
      const x = a[0];
      const bar = ctx.barIndex;
      o.col[bar] = typeof x === "number" ? x : x === true ? 1 : x === false ? 0 : NaN;
      o.color!.set(packedColor(a[pc]), bar);
      return o.meta.index;
    };
  }
  if (cells === "number" && p.series === 0) {
    // plotarrow: the same without a colour column
    return (ctx, a, site: CallSite) => {
      const o = (site.state as PlotOutput | undefined) ?? register(ctx, a, site);
      const x = a[0];
      o.col[ctx.barIndex] = typeof x === "number" ? x : x === true ? 1 : x === false ? 0 : NaN;
      return o.meta.index;
    };
  }
  return (ctx, a, site: CallSite) => {
    const o = (site.state as PlotOutput | undefined) ?? register(ctx, a, site);
    o.col[ctx.barIndex] = cell(a, p);
    if (pc >= 0) o.color!.set(packedColor(a[pc]), ctx.barIndex);
    return result(o);
  };
}

/** plotcandle/plotbar: the close in the output's column, open/high/low and the colours beside it. */
function ohlcOutput(
  name: "plotcandle" | "plotbar",
  meta: (a: unknown[], p: Record<string, number>, ctx: ExecContext) => Record<string, unknown>,
): BuiltinImpl {
  const p = params(name);
  const po = p.open!,
    ph = p.high!,
    pl = p.low!,
    pcl = p.close!,
    pc = p.color!;
  // plotbar has no wick or border
  const pw = p.wickcolor ?? -1,
    pb = p.bordercolor ?? -1;
  return (ctx, a, site: CallSite) => {
    let o = site.state as PlotOutput | undefined;
    if (o === undefined) {
      const s = store(ctx);
      // (registered before a realtime tick's rollback: the same output)
      o = s.ofSite(site.id);
      if (o === undefined) {
        const title = a[p.title!];
        o = s.register(
          name,
          typeof title === "string" ? title : null,
          "number",
          clean(meta(a, p, ctx)) as never,
          site.id,
        );
        s.trackColor(o, a[pc]);
        s.trackOhlc(o, pw >= 0 ? a[pw] : undefined, pb >= 0 ? a[pb] : undefined);
      }
      site.state = o;
    }
    const bar = ctx.barIndex;
    const k = o.ohlc!;
    o.col[bar] = value(a[pcl]);
    k.open[bar] = value(a[po]);
    k.high[bar] = value(a[ph]);
    k.low[bar] = value(a[pl]);
    o.color!.set(packedColor(a[pc]), bar);
    if (pw >= 0) k.wick.set(packedColor(a[pw]), bar);
    if (pb >= 0) k.border.set(packedColor(a[pb]), bar);
    return o.meta.index;
  };
}

const value = (x: unknown): number => (typeof x === "number" ? x : typeof x === "boolean" ? (x ? 1 : 0) : NaN);

export const functions: BuiltinTable = {
  plot: {
    name: "plot",
    impl: output(
      "plot",
      "number",
      (a, p, ctx) => ({
        color: color(a[p.color!]) ?? "#2962FF",
        linewidth: num(a[p.linewidth!]) ?? 1,
        style: str(a[p.style!]) ?? "line",
        linestyle: str(a[p.linestyle!]),
        display: displayName(a[p.display!]),
        offset: num(a[p.offset!]),
        pane: pane(ctx, a[p.force_overlay!]),
      }),
      (a, p) => value(a[p.series!]),
      undefined,
      "color",
    ),
  },
  plotshape: {
    name: "plotshape",
    impl: output(
      "plotshape",
      "flag",
      (a, p, ctx) => ({
        color: color(a[p.color!]) ?? "#2962FF",
        style: str(a[p.style!]) ?? "xcross",
        location: str(a[p.location!]) ?? "abovebar",
        text: str(a[p.text!]),
        size: str(a[p.size!]) ?? "auto",
        display: displayName(a[p.display!]),
        pane: pane(ctx, a[p.force_overlay!]),
      }),
      (a, p) => flagCell(a[p.series!]),
      undefined,
      "color",
    ),
  },
  plotchar: {
    name: "plotchar",
    impl: output(
      "plotchar",
      "flag",
      (a, p, ctx) => ({
        color: color(a[p.color!]) ?? "#2962FF",
        char: str(a[p.char!]) ?? "★",
        location: str(a[p.location!]) ?? "abovebar",
        text: str(a[p.text!]),
        size: str(a[p.size!]) ?? "auto",
        display: displayName(a[p.display!]),
        pane: pane(ctx, a[p.force_overlay!]),
      }),
      (a, p) => flagCell(a[p.series!]),
      undefined,
      "color",
    ),
  },
  plotarrow: {
    name: "plotarrow",
    impl: output(
      "plotarrow",
      "number",
      (a, p, ctx) => ({
        color: color(a[p.colorup!]) ?? "#4CAF50",
        colordown: color(a[p.colordown!]) ?? "#FF5252",
        display: displayName(a[p.display!]),
        pane: pane(ctx, a[p.force_overlay!]),
      }),
      (a, p) => value(a[p.series!]),
    ),
  },
  plotbar: {
    name: "plotbar",
    impl: ohlcOutput("plotbar", (a, p, ctx) => ({
      color: color(a[p.color!]) ?? "#2962FF",
      display: displayName(a[p.display!]),
      pane: pane(ctx, a[p.force_overlay!]),
    })),
  },
  plotcandle: {
    name: "plotcandle",
    impl: ohlcOutput("plotcandle", (a, p, ctx) => ({
      color: color(a[p.color!]) ?? "#2962FF",
      wickcolor: color(a[p.wickcolor!]),
      bordercolor: color(a[p.bordercolor!]),
      display: displayName(a[p.display!]),
      pane: pane(ctx, a[p.force_overlay!]),
    })),
  },
  hline: {
    name: "hline",
    impl: output(
      "hline",
      "number",
      (a, p, ctx) => ({
        color: color(a[p.color!]) ?? "#787B86",
        price: num(a[p.price!]),
        linestyle: str(a[p.linestyle!]) ?? "dashed",
        linewidth: num(a[p.linewidth!]) ?? 1,
        display: displayName(a[p.display!]),
        pane: pane(ctx, undefined),
      }),
      (a, p) => value(a[p.price!]),
    ),
  },
  fill: {
    name: "fill",
    impl: (() => {
      const p = params("fill");
      return (ctx: ExecContext, a: unknown[], site: CallSite) => {
        let o = site.state as PlotOutput | undefined;
        if (o === undefined) {
          const s = store(ctx);
          const ref = (x: unknown) => (typeof x === "number" ? s.outputs[x]?.key : undefined);
          const title = a[p.title!];
          // (registered before a realtime tick's rollback: the same output)
          o =
            s.ofSite(site.id) ??
            s.register(
              "fill",
              typeof title === "string" ? title : null,
              "color",
              clean({
                color: color(a[p.color!]),
                plot1: ref(a[p.plot1!] ?? a[p.hline1!]),
                plot2: ref(a[p.plot2!] ?? a[p.hline2!]),
                display: displayName(a[p.display!]),
                pane: pane(ctx, undefined),
              }) as never,
              site.id,
            );
          site.state = o;
        }
        o.col[ctx.barIndex] = packedColor(a[p.color!]);
        return undefined;
      };
    })(),
  },
  bgcolor: {
    name: "bgcolor",
    impl: output(
      "bgcolor",
      "color",
      (a, p, ctx) => ({
        color: color(a[p.color!]),
        display: displayName(a[p.display!]),
        pane: pane(ctx, a[p.force_overlay!]),
      }),
      (a, p) => packedColor(a[p.color!]),
      () => undefined,
    ),
  },
  barcolor: {
    name: "barcolor",
    impl: output(
      "barcolor",
      "color",
      (a, p, ctx) => ({
        color: color(a[p.color!]),
        display: displayName(a[p.display!]),
        pane: pane(ctx, undefined),
      }),
      (a, p) => packedColor(a[p.color!]),
      () => undefined,
    ),
  },
};
