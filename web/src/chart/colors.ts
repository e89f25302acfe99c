// Colour strings of results ("#RRGGBB" / "#RRGGBBAA") to CSS the canvas and the chart library accept.

export function cssColor(c: unknown, fallback = "#2962ff"): string {
  if (typeof c !== "string" || !c.startsWith("#")) return fallback;
  if (c.length === 9) {
    const r = parseInt(c.slice(1, 3), 16);
    const g = parseInt(c.slice(3, 5), 16);
    const b = parseInt(c.slice(5, 7), 16);
    const a = parseInt(c.slice(7, 9), 16) / 255;
    return `rgba(${r}, ${g}, ${b}, ${Math.round(a * 1000) / 1000})`;
  }
  return c;
}

/** A packed 0xRRGGBBAA number (the runtime's colour value) or a string, as CSS; null for na. */
export function anyColor(c: unknown): string | null {
  if (typeof c === "number") {
    if (c !== c) return null;
    const hex = (c >>> 0).toString(16).padStart(8, "0");
    return cssColor("#" + hex);
  }
  if (typeof c === "string") return cssColor(c);
  return null;
}

/** Series colours for plots that come without one, in TradingView's default order. */
export const PALETTE = [
  "#2962ff",
  "#ff6d00",
  "#00897b",
  "#d81b60",
  "#6d4c41",
  "#8e24aa",
  "#43a047",
  "#f4511e",
  "#3949ab",
  "#00acc1",
];
