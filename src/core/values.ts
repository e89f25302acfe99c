// How Pine values live in JavaScript. One representation for every backend and builtin, chosen so
// that the hot path (numbers) needs no boxing and na checks are a single `x !== x`.
//
//   int, float   -> number; na is NaN. ints are kept integral by the operations that produce them.
//   bool         -> boolean; never na in v6 (v5 na bool reads as false).
//   color        -> number: packed 0xRRGGBBAA as an unsigned 32-bit value; na is NaN.
//   string       -> string; na is null.
//   enum value   -> EnumValue object; na is null.
//   array/matrix/map/UDT/drawing objects -> class instances below (or drawing classes); na is null.

export type PineValue = number | boolean | string | null | object;

/** The one test for na that works for every representation. */
export function isNa(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "number" && v !== v);
}

// ---------------------------------------------------------------- colours

export function packColor(r: number, g: number, b: number, a = 255): number {
  return (((r & 255) << 24) | ((g & 255) << 16) | ((b & 255) << 8) | (a & 255)) >>> 0;
}
/** Colour `c` with its alpha byte replaced by `a` (red, green and blue kept): packColor's bits. */
export function withAlpha(c: number, a: number): number {
  return ((c & -256) | (a & 255)) >>> 0;
}
export function colorR(c: number): number {
  return (c >>> 24) & 255;
}
export function colorG(c: number): number {
  return (c >>> 16) & 255;
}
export function colorB(c: number): number {
  return (c >>> 8) & 255;
}
export function colorA(c: number): number {
  return c & 255;
}
/** Pine transparency 0 (opaque) .. 100 (invisible) from an alpha byte. */
export function colorTransp(c: number): number {
  return Math.round(((255 - colorA(c)) / 255) * 100 * 100) / 100;
}
function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, "0");
}
/** "#RRGGBB" when opaque, else "#RRGGBBAA"; null for na. The result format of colour cells. */
export function colorToString(c: number): string | null {
  if (c !== c) return null;
  const a = colorA(c);
  const rgb = "#" + hex2(colorR(c)) + hex2(colorG(c)) + hex2(colorB(c));
  return a === 255 ? rgb : rgb + hex2(a);
}

// ---------------------------------------------------------------- collections and objects

/** `array<T>`; `elemType` is the Pine type name of the elements ("float", "int", "string", "MyType", ...). */
export class PineArray<T = PineValue> {
  constructor(
    public elemType: string,
    public values: T[],
  ) {}
}

/** `matrix<T>`, row-major. */
export class PineMatrix<T = PineValue> {
  constructor(
    public elemType: string,
    public rows: number,
    public cols: number,
    public data: T[],
  ) {}
}

/** `map<K, V>`: insertion-ordered like TradingView's. */
export class PineMap<K = PineValue, V = PineValue> {
  constructor(
    public keyType: string,
    public valueType: string,
    public map: Map<K, V> = new Map(),
  ) {}
}

/** An instance of a user-defined type; fields in declaration order. */
export class PineObject {
  constructor(
    public typeName: string,
    public fields: PineValue[],
  ) {}
}

/** A member of a user enum: `ordinal` for identity, `title` for str.tostring and inputs. */
export class EnumValue {
  constructor(
    public enumName: string,
    public name: string,
    public title: string,
    public ordinal: number,
  ) {}
}
