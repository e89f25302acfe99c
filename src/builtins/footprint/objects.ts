// The `footprint` and `volume_row` objects of request.footprint (Reference Manual: footprint.*,
// volume_row.*): one bar's volume binned into price rows of `ticks_per_row` ticks, with "buy" and
// "sell" volume per row, the Point of Control, the value area and diagonal imbalances. Built from
// classified trades (src/builtins/request/footprint.ts reads them from the data feed); immutable once
// built, so realtime rollback never needs to touch them.
import { PineArray } from "../../core/values.js";

export class VolumeRow {
  constructor(
    /** Lower and upper boundary of the row's price range ([down, up)). */
    readonly downPrice: number,
    readonly upPrice: number,
    public buyVolume: number,
    public sellVolume: number,
  ) {}
  hasBuyImbalance = false;
  hasSellImbalance = false;
  get totalVolume(): number {
    return this.buyVolume + this.sellVolume;
  }
  get delta(): number {
    return this.buyVolume - this.sellVolume;
  }
}

export class Footprint {
  constructor(
    /** Lowest row first. */
    readonly rows: VolumeRow[],
    readonly poc: VolumeRow,
    readonly vah: VolumeRow,
    readonly val: VolumeRow,
    readonly buyVolume: number,
    readonly sellVolume: number,
  ) {}
  get totalVolume(): number {
    return this.buyVolume + this.sellVolume;
  }
  get delta(): number {
    return this.buyVolume - this.sellVolume;
  }
  /** The row whose [down, up) range holds `price`, or null outside the footprint. */
  rowByPrice(price: number): VolumeRow | null {
    if (price !== price || this.rows.length === 0) return null;
    const lo = this.rows[0]!.downPrice;
    const size = this.rows[0]!.upPrice - lo;
    const r = Math.floor((price - lo) / size + 1e-9);
    return r >= 0 && r < this.rows.length ? this.rows[r]! : null;
  }
  /** footprint.rows(): a new array of the row ids, lowest first. */
  rowArray(): PineArray<VolumeRow> {
    return new PineArray("volume_row", this.rows.slice());
  }
}

/** Rows a footprint may hold (a tiny ticks_per_row on a wide bar would otherwise allocate without bound). */
export const MAX_ROWS = 10_000;

/** One bar's trades: price and size of each "buy" and each "sell" print. */
export interface BarTrades {
  buyPrice: ArrayLike<number>;
  buySize: ArrayLike<number>;
  sellPrice: ArrayLike<number>;
  sellSize: ArrayLike<number>;
}

/**
 * Bins a bar's trades into rows of `rowSize` (row r covers [r * rowSize, (r + 1) * rowSize), every row
 * between the lowest and the highest traded one included), then finds the POC (the row of largest
 * total volume; the lowest of equal ones), the value area (from the POC, the larger neighbouring row
 * is added, the upper one on a tie, until `vaPercent` of the volume is inside) and the imbalances
 * (a row's buy volume above `imbalancePercent` % of the sell volume of the row below; its sell volume
 * above that share of the buy volume of the row above). Null when the bar has no trade.
 */
export function buildFootprint(
  t: BarTrades,
  rowSize: number,
  vaPercent: number,
  imbalancePercent: number,
): Footprint | null | string {
  let lo = Infinity,
    hi = -Infinity;
  const scan = (p: ArrayLike<number>) => {
    for (let i = 0; i < p.length; i++) {
      const r = rowOf(p[i]!, rowSize);
      if (r < lo) lo = r;
      if (r > hi) hi = r;
    }
  };
  scan(t.buyPrice);
  scan(t.sellPrice);
  if (lo > hi) return null;
  const count = hi - lo + 1;
  if (count > MAX_ROWS)
    return `the bar's trades span ${count} rows of ${rowSize} (more than ${MAX_ROWS}): use a larger ticks_per_row`;
  const rows: VolumeRow[] = new Array(count);
  for (let r = 0; r < count; r++)
    rows[r] = new VolumeRow(roundPrice((lo + r) * rowSize), roundPrice((lo + r + 1) * rowSize), 0, 0);
  let buy = 0,
    sell = 0;
  for (let i = 0; i < t.buyPrice.length; i++) {
    const v = t.buySize[i]!;
    if (!(v > 0)) continue;
    rows[rowOf(t.buyPrice[i]!, rowSize) - lo]!.buyVolume += v;
    buy += v;
  }
  for (let i = 0; i < t.sellPrice.length; i++) {
    const v = t.sellSize[i]!;
    if (!(v > 0)) continue;
    rows[rowOf(t.sellPrice[i]!, rowSize) - lo]!.sellVolume += v;
    sell += v;
  }
  let poc = 0;
  for (let r = 1; r < count; r++) if (rows[r]!.totalVolume > rows[poc]!.totalVolume) poc = r;
  // value area: grow from the POC towards the heavier side
  const target = ((buy + sell) * Math.min(100, Math.max(0, vaPercent === vaPercent ? vaPercent : 0))) / 100;
  let down = poc,
    up = poc,
    inside = rows[poc]!.totalVolume;
  while (inside < target && (down > 0 || up < count - 1)) {
    const above = up < count - 1 ? rows[up + 1]!.totalVolume : -1;
    const below = down > 0 ? rows[down - 1]!.totalVolume : -1;
    if (above >= below) inside += rows[++up]!.totalVolume;
    else inside += rows[--down]!.totalVolume;
  }
  const ratio = imbalancePercent / 100;
  if (ratio === ratio) {
    for (let r = 0; r < count; r++) {
      const row = rows[r]!;
      if (r > 0) row.hasBuyImbalance = row.buyVolume > 0 && row.buyVolume > rows[r - 1]!.sellVolume * ratio;
      if (r < count - 1) row.hasSellImbalance = row.sellVolume > 0 && row.sellVolume > rows[r + 1]!.buyVolume * ratio;
    }
  }
  return new Footprint(rows, rows[poc]!, rows[up]!, rows[down]!, buy, sell);
}

/** Row of a price: floor(price / rowSize), robust to the binary representation of decimal prices. */
function rowOf(price: number, rowSize: number): number {
  return Math.floor(price / rowSize + 1e-9);
}

/** Row boundaries as the decimal prices they are (0.1 * 3 = 0.30000000000000004 otherwise). */
function roundPrice(x: number): number {
  return Math.round(x * 1e10) / 1e10;
}
