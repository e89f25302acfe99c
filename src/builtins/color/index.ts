// color.* builtins and the named colour constants (TradingView v6 palette, from the reference
// manual). Colours are packed 0xRRGGBBAA numbers (src/core/values.ts); na is NaN.
// Transparency t (0 opaque .. 100 invisible) maps to alpha round(255 * (100 - t) / 100); reading it
// back (color.t) rounds to the nearest whole transparency, so integer transparencies round-trip.

import { colorA, colorB, colorG, colorR, packColor, withAlpha } from "../../core/values.js";
import type { BuiltinDef, BuiltinTable, ConstantTable, VariableTable } from "../types.js";

export function hexColor(hex: string): number {
  const h = hex.replace("#", "");
  const r = parseInt(h.slice(0, 2), 16);
  const g = parseInt(h.slice(2, 4), 16);
  const b = parseInt(h.slice(4, 6), 16);
  const a = h.length >= 8 ? parseInt(h.slice(6, 8), 16) : 255;
  return packColor(r, g, b, a);
}

export const PALETTE: Record<string, string> = {
  aqua: "#00BCD4",
  black: "#363A45",
  blue: "#2962FF",
  fuchsia: "#E040FB",
  gray: "#787B86",
  green: "#4CAF50",
  lime: "#00E676",
  maroon: "#880E4F",
  navy: "#311B92",
  olive: "#808000",
  orange: "#FF9800",
  purple: "#9C27B0",
  red: "#F23645",
  silver: "#B2B5BE",
  teal: "#089981",
  white: "#FFFFFF",
  yellow: "#FDD835",
};

/** Alpha byte of a Pine transparency (clamped to 0..100). */
export function alphaOf(transp: number): number {
  const t = transp < 0 ? 0 : transp > 100 ? 100 : transp;
  return Math.round((255 * (100 - t)) / 100);
}

/** Transparency of a colour, rounded to a whole number. */
export function transpOf(c: number): number {
  return Math.round(((255 - colorA(c)) * 100) / 255);
}

function channel(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

export function colorNew(c: number, transp: number): number {
  if (c !== c || c == null) return NaN;
  if (transp == null || transp !== transp) return c;
  return withAlpha(c, alphaOf(transp));
}

export function colorRgb(r: number, g: number, b: number, transp = 0): number {
  if (r !== r || g !== g || b !== b) return NaN;
  return packColor(channel(r), channel(g), channel(b), alphaOf(transp !== transp || transp == null ? 0 : transp));
}

/** Linear blend of two colours by the position of value between bottom and top (clamped). */
export function fromGradient(
  value: number,
  bottom: number,
  top: number,
  bottomColor: number,
  topColor: number,
): number {
  if (value !== value || bottom !== bottom || top !== top) return NaN;
  if (bottomColor !== bottomColor || topColor !== topColor) return NaN;
  let f = top === bottom ? (value >= top ? 1 : 0) : (value - bottom) / (top - bottom);
  if (f < 0) f = 0;
  if (f > 1) f = 1;
  const mix = (x: number, y: number): number => Math.round(x + (y - x) * f);
  return packColor(
    mix(colorR(bottomColor), colorR(topColor)),
    mix(colorG(bottomColor), colorG(topColor)),
    mix(colorB(bottomColor), colorB(topColor)),
    mix(colorA(bottomColor), colorA(topColor)),
  );
}

function getter(name: string, fn: (c: number) => number): BuiltinDef {
  return { name, impl: (_c, a) => (a[0] == null || a[0] !== a[0] ? NaN : fn(a[0] as number)), pure: true };
}

// (pure: arithmetic on the arguments alone, so constant arguments fold to a constant colour)
export const functions: BuiltinTable = {
  // (direct: a per-bar colour computed without an argument array; BuiltinDef.direct)
  "color.new": {
    name: "color.new",
    impl: (_c, a) => colorNew(a[0], a[1]),
    direct: (_c, c: number, transp: number) => colorNew(c, transp),
    pure: true,
  },
  "color.rgb": {
    name: "color.rgb",
    impl: (_c, a) => colorRgb(a[0], a[1], a[2], a[3] ?? 0),
    direct: (_c, r: number, g: number, b: number, transp?: number) => colorRgb(r, g, b, transp ?? 0),
    pure: true,
  },
  "color.from_gradient": {
    name: "color.from_gradient",
    impl: (_c, a) => fromGradient(a[0], a[1], a[2], a[3], a[4]),
    direct: (_c, v: number, bottom: number, top: number, bc: number, tc: number) =>
      fromGradient(v, bottom, top, bc, tc),
    pure: true,
  },
  "color.r": getter("color.r", colorR),
  "color.g": getter("color.g", colorG),
  "color.b": getter("color.b", colorB),
  "color.t": getter("color.t", transpOf),
};

export const variables: VariableTable = {};

export const constants: ConstantTable = Object.fromEntries(
  Object.entries(PALETTE).map(([name, hex]) => ["color." + name, hexColor(hex)]),
);
