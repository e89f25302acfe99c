// footprint.*: what a `footprint` object (request.footprint, src/builtins/request/footprint.ts) holds.
// Every function takes the object's id; na (null) for an na id, as for other object types.
import type { BuiltinTable } from "../types.js";
import { Footprint } from "./objects.js";

export { Footprint, VolumeRow, buildFootprint, type BarTrades } from "./objects.js";

function fp(v: unknown): Footprint | null {
  return v instanceof Footprint ? v : null;
}

function num(name: string, get: (f: Footprint) => number) {
  return {
    name,
    impl: (_c: unknown, a: unknown[]): number => {
      const f = fp(a[0]);
      return f ? get(f) : NaN;
    },
  };
}

export const functions: BuiltinTable = {
  "footprint.buy_volume": num("footprint.buy_volume", (f) => f.buyVolume),
  "footprint.sell_volume": num("footprint.sell_volume", (f) => f.sellVolume),
  "footprint.total_volume": num("footprint.total_volume", (f) => f.totalVolume),
  "footprint.delta": num("footprint.delta", (f) => f.delta),
  "footprint.poc": { name: "footprint.poc", impl: (_c, a) => fp(a[0])?.poc ?? null },
  "footprint.vah": { name: "footprint.vah", impl: (_c, a) => fp(a[0])?.vah ?? null },
  "footprint.val": { name: "footprint.val", impl: (_c, a) => fp(a[0])?.val ?? null },
  "footprint.rows": { name: "footprint.rows", impl: (_c, a) => fp(a[0])?.rowArray() ?? null },
  "footprint.get_row_by_price": {
    name: "footprint.get_row_by_price",
    impl: (_c, a) => {
      const f = fp(a[0]);
      return f && typeof a[1] === "number" ? f.rowByPrice(a[1]) : null;
    },
  },
};
