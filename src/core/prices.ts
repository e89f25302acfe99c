// The composite bar prices (hl2, hlc3, ohlc4, hlcc4) as functions of a bar's numbers: one definition
// for the builtin variables, the source inputs and the whole-series columns (interpret/precompute.ts),
// so they all compute each price with the same operations in the same order. hlcc4 adds 2 * close,
// not close twice: the rounding TradingView's rma(hlcc4, 5) export reproduces bit for bit (ta/ma:
// 146/146 cells; adding close twice gives 125/146).

export type CompositePrice = (open: number, high: number, low: number, close: number) => number;

export const COMPOSITE_PRICES: Readonly<Record<"hl2" | "hlc3" | "ohlc4" | "hlcc4", CompositePrice>> = {
  hl2: (_o, h, l) => (h + l) / 2,
  hlc3: (_o, h, l, c) => (h + l + c) / 3,
  ohlc4: (o, h, l, c) => (o + h + l + c) / 4,
  hlcc4: (_o, h, l, c) => (h + l + 2 * c) / 4,
};

/** The composite price of that name, or undefined for any other name. */
export function compositePrice(name: unknown): CompositePrice | undefined {
  return typeof name === "string" && Object.hasOwn(COMPOSITE_PRICES, name)
    ? COMPOSITE_PRICES[name as keyof typeof COMPOSITE_PRICES]
    : undefined;
}
