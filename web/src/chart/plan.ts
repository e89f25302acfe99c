// Turns a result's plot_meta into drawing instructions, independent of the chart library so it can
// be unit-tested: which series type, which pane, which colour, which markers.

import type { PlotMeta } from "../../../src/core/result.js";
import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { PALETTE, cssColor } from "./colors.js";

export type Pane = 0 | 1;

export type PlotPlan =
  | {
      type: "line";
      title: string;
      pane: Pane;
      color: string;
      width: number;
      step: boolean;
      dashed: boolean;
      points: boolean;
      lineVisible: boolean;
      bridge: boolean;
      offset: number;
    }
  | { type: "histogram"; title: string; pane: Pane; color: string; offset: number }
  | { type: "area"; title: string; pane: Pane; color: string; width: number; bridge: boolean; offset: number }
  | {
      type: "markers";
      title: string;
      pane: Pane;
      color: string;
      colorDown: string;
      shape: MarkerShape;
      position: MarkerPosition;
      text: string;
      arrow: boolean;
      size: number;
    }
  | { type: "hline"; title: string; pane: Pane; price: number; color: string; dashed: boolean; width: number }
  | { type: "fill"; title: string; pane: Pane; plot1: string; plot2: string; color: string }
  | { type: "bgcolor"; title: string; pane: Pane }
  | { type: "barcolor"; title: string }
  | {
      type: "ohlc";
      title: string;
      pane: Pane;
      candles: boolean;
      color: string;
      wickColor: string;
      borderColor: string;
    };

export type MarkerShape = "circle" | "square" | "arrowUp" | "arrowDown";
export type MarkerPosition = "aboveBar" | "belowBar" | "inBar";

/** "shape.triangleup" / "triangleup" / "plot.style_line" / "style_line" -> the bare name. */
export function bareName(s: unknown): string {
  if (typeof s !== "string") return "";
  const dot = s.lastIndexOf(".");
  return (dot >= 0 ? s.slice(dot + 1) : s).replace(/^style_/, "").toLowerCase();
}

export function markerShape(style: string): MarkerShape {
  if (/down/.test(style)) return "arrowDown";
  if (/up/.test(style)) return "arrowUp";
  if (style === "square" || style === "diamond") return "square";
  return "circle";
}

export function markerPosition(location: string, shape: MarkerShape): MarkerPosition {
  switch (location) {
    case "abovebar":
    case "top":
      return "aboveBar";
    case "belowbar":
    case "bottom":
      return "belowBar";
    case "absolute":
      return "inBar";
    default:
      // TradingView's default location is abovebar; arrows pointing up read better below the bar
      return shape === "arrowUp" ? "belowBar" : "aboveBar";
  }
}

/** Pine's shape sizes as the chart library's marker size multiplier (size.auto reads as small). */
export function markerSize(size: unknown): number {
  switch (bareName(size)) {
    case "tiny":
      return 0.5;
    case "normal":
      return 1.5;
    case "large":
      return 2;
    case "huge":
      return 3;
    default:
      return 1;
  }
}

function paneOf(meta: PlotMeta, overlay: boolean): Pane {
  if (meta.pane === "overlay") return 0;
  if (meta.pane === "own") return 1;
  return overlay ? 0 : 1;
}

export function planPlots(result: Pick<PackedRunResult, "plot_meta" | "overlay" | "series">): PlotPlan[] {
  const plans: PlotPlan[] = [];
  const metas = Object.entries(result.plot_meta ?? {}).sort((a, b) => (a[1].index ?? 0) - (b[1].index ?? 0));
  let colorIndex = 0;
  for (const [key, meta] of metas) {
    if (bareName(meta.display) === "none") continue;
    const title = key;
    const pane = paneOf(meta, result.overlay);
    const kind = meta.kind;
    const fallback = PALETTE[colorIndex++ % PALETTE.length];
    const color = cssColor(meta.color, fallback);
    const style = bareName(meta.style);
    switch (kind) {
      case "plot": {
        // plot(offset = n) draws bar i's value n bars later; style_line/stepline/area join across
        // na values, the *br styles break there (TradingView's "with breaks")
        const offset = typeof meta.offset === "number" ? Math.trunc(meta.offset) : 0;
        if (style === "histogram" || style === "columns") plans.push({ type: "histogram", title, pane, color, offset });
        else if (style === "area" || style === "areabr")
          plans.push({
            type: "area",
            title,
            pane,
            color,
            width: meta.linewidth ?? 1,
            bridge: style === "area",
            offset,
          });
        else {
          const points = style === "circles" || style === "cross";
          plans.push({
            type: "line",
            title,
            pane,
            color,
            width: meta.linewidth ?? 1,
            step: style.startsWith("stepline"),
            dashed: false,
            points,
            lineVisible: !points,
            bridge: !points && !style.endsWith("br"),
            offset,
          });
        }
        break;
      }
      case "plotshape":
      case "plotchar": {
        const shape = kind === "plotchar" ? "circle" : markerShape(style || "xcross");
        const loc = bareName(meta.location);
        const text = kind === "plotchar" ? String(meta.char ?? meta.text ?? "★") : String(meta.text ?? "");
        plans.push({
          type: "markers",
          title,
          pane,
          color,
          colorDown: color,
          shape,
          position: markerPosition(loc, shape),
          text,
          arrow: false,
          size: markerSize(meta.size),
        });
        break;
      }
      case "plotarrow":
        plans.push({
          type: "markers",
          title,
          pane,
          color: cssColor(meta.color, "#4caf50"),
          colorDown: cssColor(meta.colordown, "#ff5252"),
          shape: "arrowUp",
          position: "belowBar",
          text: "",
          arrow: true,
          size: 1,
        });
        break;
      case "hline": {
        const price = typeof meta.price === "number" ? meta.price : firstNumber(result.series[key]);
        if (price === null) break;
        const ls = bareName(meta.linestyle);
        plans.push({
          type: "hline",
          title,
          pane,
          price,
          color: cssColor(meta.color, "#787b86"),
          dashed: ls !== "solid",
          width: meta.linewidth ?? 1,
        });
        break;
      }
      case "fill":
        if (meta.plot1 && meta.plot2)
          plans.push({
            type: "fill",
            title,
            pane,
            plot1: meta.plot1,
            plot2: meta.plot2,
            color: cssColor(meta.color, "rgba(41, 98, 255, 0.1)"),
          });
        break;
      case "bgcolor":
        plans.push({ type: "bgcolor", title, pane });
        break;
      case "barcolor":
        plans.push({ type: "barcolor", title });
        break;
      case "plotcandle":
      case "plotbar":
        // wick and border default to the body colour
        plans.push({
          type: "ohlc",
          title,
          pane,
          candles: kind === "plotcandle",
          color,
          wickColor: cssColor(meta.wickcolor, color),
          borderColor: cssColor(meta.bordercolor, color),
        });
        break;
      default:
        if (result.series[key])
          plans.push({
            type: "line",
            title,
            pane,
            color,
            width: 1,
            step: false,
            dashed: false,
            points: false,
            lineVisible: true,
            bridge: false,
            offset: 0,
          });
    }
  }
  return plans;
}

function firstNumber(col: ArrayLike<unknown> | undefined): number | null {
  if (!col) return null;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (typeof v === "number" && v === v) return v;
  }
  return null;
}
