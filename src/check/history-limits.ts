// TradingView's history limits (User Manual, Limitations, "Maximum bars back"): a series keeps at most
// 5,000 past values, and the bar columns open, high, low, close, volume and time 10,000 (the manual
// names open/high/low/close/time "like" ones; resin counts volume among them, being a column too).
// A constant offset beyond the limit is a check error at the offset; a dynamic one beyond the
// variable's buffer (its deepest constant offset, the script's max_bars_back, or max_bars_back()) is a
// runtime error with the line and bar. Both carry TradingView's message. These limits are also what
// keeps a history ring's memory bounded: `a[99999999]` never allocates a ring that deep.

export const HISTORY_LIMIT = 5000;
export const COLUMN_HISTORY_LIMIT = 10_000;

/**
 * The deepest dynamic offset a ring of `mask + 1` slots answers: the whole ring (sized to the next
 * power of two above the variable's depth: its deepest constant offset, max_bars_back or
 * max_bars_back(); TradingView enlarges a buffer on historical bars, which the spare slots stand in
 * for), never more than the limit.
 */
export function historyCap(mask: number): number {
  return Math.min(mask, HISTORY_LIMIT);
}

/** TradingView's message for an offset past a history buffer. */
export function historyOffsetMessage(offset: number, limit: number): string {
  return `The requested historical offset (${offset}) is beyond the historical buffer's limit (${limit})`;
}

/** max_bars_back (the declaration's argument or the function's) asking for more than the limit (our wording). */
export function maxBarsBackMessage(n: number, limit: number): string {
  return `max_bars_back (${n}) is beyond the historical buffer's limit (${limit})`;
}
