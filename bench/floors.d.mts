// Types of floors.mjs (the floors are plain JavaScript so `resin bench` loads them without a build).
import type { Trade } from "../src/core/result.js";

export interface Columns {
  time: ArrayLike<number>;
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume?: ArrayLike<number>;
}
/** A strategy floor's trade row: every cell of resin's Trade, in its order. */
export type FloorTrade = Trade;
export function bench10Floor(d: Columns): Float64Array[];
export function swingStateFloor(d: Columns, len?: number, emaLen?: number): Float64Array[];
export function loopsFloor(d: Columns, len?: number): Float64Array[];
export function emaAtrStopFloor(
  d: Columns,
  mintick?: number,
  fastLen?: number,
  slowLen?: number,
  atrLen?: number,
  mult?: number,
): FloorTrade[];
export function emaCrossBracketFloor(
  d: Columns,
  mintick?: number,
  fastLen?: number,
  slowLen?: number,
  atrLen?: number,
  stopMult?: number,
  takeMult?: number,
): FloorTrade[];
export interface Floor {
  script: string;
  kind: "plots" | "trades";
  run(d: Columns): Float64Array[] | FloorTrade[];
}
export const FLOORS: Floor[];
