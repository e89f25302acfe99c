// volume_row.*: one row of a `footprint` (src/builtins/footprint/objects.ts). na (NaN, or false for the
// imbalance flags) for an na id.
import type { BuiltinTable } from "../types.js";
import { VolumeRow } from "../footprint/objects.js";

function row(v: unknown): VolumeRow | null {
  return v instanceof VolumeRow ? v : null;
}

function num(name: string, get: (r: VolumeRow) => number) {
  return {
    name,
    impl: (_c: unknown, a: unknown[]): number => {
      const r = row(a[0]);
      return r ? get(r) : NaN;
    },
  };
}

function flag(name: string, get: (r: VolumeRow) => boolean) {
  return { name, impl: (_c: unknown, a: unknown[]): boolean => row(a[0]) !== null && get(row(a[0])!) };
}

export const functions: BuiltinTable = {
  "volume_row.up_price": num("volume_row.up_price", (r) => r.upPrice),
  "volume_row.down_price": num("volume_row.down_price", (r) => r.downPrice),
  "volume_row.buy_volume": num("volume_row.buy_volume", (r) => r.buyVolume),
  "volume_row.sell_volume": num("volume_row.sell_volume", (r) => r.sellVolume),
  "volume_row.total_volume": num("volume_row.total_volume", (r) => r.totalVolume),
  "volume_row.delta": num("volume_row.delta", (r) => r.delta),
  "volume_row.has_buy_imbalance": flag("volume_row.has_buy_imbalance", (r) => r.hasBuyImbalance),
  "volume_row.has_sell_imbalance": flag("volume_row.has_sell_imbalance", (r) => r.hasSellImbalance),
};
