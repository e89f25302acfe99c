// Global builtins: OHLCV and derived prices, bar_index/last_bar_*, na/nz/fixnan, max_bars_back,
// runtime.error, and the script-wide constant namespaces (plot.*, shape.*, location.*, size.*, ...).
import { CATALOG } from "../../catalog/index.js";
import { COMPOSITE_PRICES } from "../../core/prices.js";
import type { BuiltinTable, ConstantTable, ExecContext, VariableTable } from "../types.js";

const v = (name: string, get: (ctx: ExecContext) => unknown) => ({ name, get });

export const variables: VariableTable = {
  open: v("open", (c) => c.open),
  high: v("high", (c) => c.high),
  low: v("low", (c) => c.low),
  close: v("close", (c) => c.close),
  volume: v("volume", (c) => c.volume),
  time: v("time", (c) => c.time),
  hl2: v("hl2", (c) => COMPOSITE_PRICES.hl2(c.open, c.high, c.low, c.close)),
  hlc3: v("hlc3", (c) => COMPOSITE_PRICES.hlc3(c.open, c.high, c.low, c.close)),
  ohlc4: v("ohlc4", (c) => COMPOSITE_PRICES.ohlc4(c.open, c.high, c.low, c.close)),
  hlcc4: v("hlcc4", (c) => COMPOSITE_PRICES.hlcc4(c.open, c.high, c.low, c.close)),
  bar_index: v("bar_index", (c) => c.barIndex),
  last_bar_index: v("last_bar_index", (c) => c.barCount - 1),
  last_bar_time: v("last_bar_time", (c) => (c.barCount > 0 ? c.columns.time[c.barCount - 1]! : NaN)),
};

function isNaValue(x: unknown): boolean {
  return x === null || x === undefined || (typeof x === "number" && x !== x);
}

export const functions: BuiltinTable = {
  na: { name: "na", impl: (_c, a) => isNaValue(a[0]), pure: true },
  nz: {
    name: "nz",
    impl: (_c, a) => {
      const x = a[0];
      if (!isNaValue(x)) return x;
      const r = a[1];
      if (r !== undefined) return r;
      return typeof x === "string" || x === null ? "" : 0;
    },
    pure: true,
  },
  fixnan: {
    name: "fixnan",
    stateful: true,
    impl: (_c, a, site) => {
      const x = a[0];
      const st = site.state as { last: unknown } | undefined;
      if (!isNaValue(x)) {
        // one record per site, updated in place (a realtime tick's rollback saves and restores a
        // site's record of primitives: interpret/rollback.ts)
        if (st === undefined) site.state = { last: x };
        else st.last = x;
        return x;
      }
      return st === undefined ? x : st.last;
    },
  },
  max_bars_back: { name: "max_bars_back", impl: () => undefined },
  "runtime.error": { name: "runtime.error", impl: (c, a) => c.runtimeError(String(a[0] ?? "runtime error")) },
  line: { name: "line", impl: (_c, a) => a[0] ?? null },
  label: { name: "label", impl: (_c, a) => a[0] ?? null },
  box: { name: "box", impl: (_c, a) => a[0] ?? null },
  table: { name: "table", impl: (_c, a) => a[0] ?? null },
  linefill: { name: "linefill", impl: (_c, a) => a[0] ?? null },
};

// ---------------------------------------------------------------- constants

/** Namespaces whose constants this module defines (the rest belong to their own modules). */
const OWNED = new Set([
  "plot",
  "shape",
  "location",
  "size",
  "display",
  "format",
  "position",
  "scale",
  "hline",
  "barmerge",
  "order",
  "xloc",
  "yloc",
  "extend",
  "text",
  "font",
  "alert",
  "adjustment",
  "backadjustment",
  "settlement_as_close",
  "splits",
  "dividends",
  "earnings",
  "currency",
]);

/** display.* are bit flags so that `display.all - display.status_line` works as in Pine. */
const DISPLAY: Record<string, number> = {
  "display.none": 0,
  "display.pane": 1,
  "display.data_window": 2,
  "display.status_line": 4,
  "display.price_scale": 8,
  "display.pine_screener": 16,
  "display.all": 31,
};

function constantValue(name: string): unknown {
  if (name in DISPLAY) return DISPLAY[name];
  const last = name.slice(name.lastIndexOf(".") + 1);
  if (name.startsWith("currency.")) return last;
  if (name.startsWith("barmerge.")) return last === "gaps_on" || last === "lookahead_on";
  return last.replace(/^(style|linestyle|freq|align|wrap|format|family)_/, "");
}

export const constants: ConstantTable = {};
for (const name of Object.keys(CATALOG.constants)) {
  if (OWNED.has(name.slice(0, name.indexOf(".")))) constants[name] = constantValue(name);
}
