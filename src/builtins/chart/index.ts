// chart.* variables (chart.point belongs to the drawings module). A run has no chart window, so the
// values describe a standard candle chart with TradingView's default light theme; a host can set
// them through ctx.ext["chart"] ({bg_color, fg_color, type, left_visible_bar_time,
// right_visible_bar_time}). Without a host value the visible range is the whole data set.

import type { ConstantTable, ExecContext, VariableTable } from "../types.js";
import { packColor } from "../../core/values.js";

interface ChartSettings {
  bg_color?: number;
  fg_color?: number;
  /** "standard" | "heikinashi" | "renko" | "kagi" | "linebreak" | "pnf" | "range". */
  type?: string;
  left_visible_bar_time?: number;
  right_visible_bar_time?: number;
}

const WHITE = packColor(255, 255, 255);
const BLACK = packColor(0, 0, 0);

function settings(ctx: ExecContext): ChartSettings {
  const s = ctx.ext["chart"];
  return s && typeof s === "object" ? (s as ChartSettings) : {};
}

function chartType(ctx: ExecContext): string {
  return settings(ctx).type ?? "standard";
}

function isType(name: string, type: string): VariableTable[string] {
  return { name, get: (ctx) => chartType(ctx) === type };
}

export const variables: VariableTable = {
  "chart.bg_color": { name: "chart.bg_color", get: (ctx) => settings(ctx).bg_color ?? WHITE },
  "chart.fg_color": {
    name: "chart.fg_color",
    get: (ctx) => {
      const s = settings(ctx);
      if (s.fg_color !== undefined) return s.fg_color;
      // Best contrast with the background: black on light, white on dark.
      const bg = s.bg_color ?? WHITE;
      const lum = 0.299 * ((bg >>> 24) & 255) + 0.587 * ((bg >>> 16) & 255) + 0.114 * ((bg >>> 8) & 255);
      return lum >= 128 ? BLACK : WHITE;
    },
  },
  "chart.is_standard": isType("chart.is_standard", "standard"),
  "chart.is_heikinashi": isType("chart.is_heikinashi", "heikinashi"),
  "chart.is_renko": isType("chart.is_renko", "renko"),
  "chart.is_kagi": isType("chart.is_kagi", "kagi"),
  "chart.is_linebreak": isType("chart.is_linebreak", "linebreak"),
  "chart.is_pnf": isType("chart.is_pnf", "pnf"),
  "chart.is_range": isType("chart.is_range", "range"),
  "chart.left_visible_bar_time": {
    name: "chart.left_visible_bar_time",
    get: (ctx) => settings(ctx).left_visible_bar_time ?? (ctx.columns.time.length ? ctx.columns.time[0]! : NaN),
  },
  "chart.right_visible_bar_time": {
    name: "chart.right_visible_bar_time",
    get: (ctx) => {
      const col = ctx.columns.time;
      return settings(ctx).right_visible_bar_time ?? (col.length ? col[col.length - 1]! : NaN);
    },
  },
};

export const functions = {};
export const constants: ConstantTable = {};
