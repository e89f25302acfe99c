// math.sum(source, length): the sum of the last `length` non-na values of source. na values are
// skipped (they neither enter the window nor reset it); na until `length` values were seen
// (logs/math_test_002_math_sum_na). Same arithmetic as the ta.sma kernel (assembly/avg.ts): a running
// sum that takes the leaving value out before adding the new one, and a window sum within 1e-10 of
// zero reads as 0 (logs/math_test_004: a flat run of zeros sums to exactly 0).

/** Sums within this of zero are zero (the running sum's residue once the window cancels out). */
const ZERO_SUM = 1e-10;

export interface SumState {
  /** Ring of the last values (capacity a power of two, at least 8, as the kernels' rings). */
  buf: Float64Array;
  /** Index of the next write. */
  head: number;
  /** Values held (capped at buf.length). */
  count: number;
  /** Running sum of the last `len` values. */
  sum: number;
  /** Length of the previous call (a change re-sums the window). */
  len: number;
  /** Set once the length changed after values came in: from then on every value is kept, so a later,
   * longer window still finds its values (TradingView keeps the whole history). */
  keepAll: boolean;
  /** Bar of the last call, and the state before that bar's first call: a call again on the same bar
   * (a realtime tick) starts over from it, as the kernels' shadow copies do. */
  bar: number;
  saved: { buf: Float64Array; head: number; count: number; sum: number; len: number; keepAll: boolean; slot: number };
}

function ringSize(need: number): number {
  let c = 8;
  while (c < need) c *= 2;
  return c;
}

export function createSumState(capacity: number): SumState {
  const len = Math.max(1, capacity);
  // at least 512 values from the start, as the kernels' windowed states (assembly/avg.ts HISTORY)
  const buf = new Float64Array(ringSize(Math.max(len + 1, 512)));
  return {
    buf,
    head: 0,
    count: 0,
    sum: 0,
    len,
    keepAll: false,
    bar: -1,
    saved: { buf, head: 0, count: 0, sum: 0, len, keepAll: false, slot: 0 },
  };
}

/** Saves the state at the start of a new bar, or restores it when `bar` is the last call's bar. */
function beginBar(st: SumState, bar: number): void {
  const sv = st.saved;
  if (bar !== st.bar) {
    st.bar = bar;
    sv.buf = st.buf;
    sv.head = st.head;
    sv.count = st.count;
    sv.sum = st.sum;
    sv.len = st.len;
    sv.keepAll = st.keepAll;
    sv.slot = st.buf[st.head]!;
    return;
  }
  // a grown ring was copied, the saved one was never written before the copy
  st.buf = sv.buf;
  st.buf[sv.head] = sv.slot;
  st.head = sv.head;
  st.count = sv.count;
  st.sum = sv.sum;
  st.len = sv.len;
  st.keepAll = sv.keepAll;
}

/** Reallocates the ring with room for `need` values, keeping the newest ones. */
function grow(st: SumState, need: number): void {
  const old = st.buf;
  const n = st.count;
  const next = new Float64Array(ringSize(need));
  // Copy oldest..newest to the front.
  for (let k = 0; k < n; k++) next[k] = old[(st.head - n + k + old.length * 2) % old.length]!;
  st.buf = next;
  st.head = n % next.length;
}

/** The value pushed `k` pushes ago (0 = newest); caller keeps k < count. */
function back(st: SumState, k: number): number {
  const cap = st.buf.length;
  return st.buf[(st.head - 1 - k + cap) % cap]!;
}

/** Feeds one bar and returns the window sum (na while fewer than `length` values). With `bar`, a
 * repeated call on the same bar replaces that bar's value instead of adding another. */
export function sumStep(st: SumState, x: number, length: number, bar?: number): number {
  if (bar !== undefined) beginBar(st, bar);
  if (!(length >= 1)) return NaN;
  const len = Math.trunc(length);
  if (len !== st.len && st.count > 0) st.keepAll = true;
  // One slot more than the window: the value leaving it is still readable after the push.
  if (len + 1 > st.buf.length) grow(st, len + 1);
  const pushed = x === x;
  if (pushed) {
    if (st.keepAll && st.count === st.buf.length) grow(st, st.buf.length * 2);
    const cap = st.buf.length;
    st.buf[st.head] = x;
    st.head = (st.head + 1) % cap;
    if (st.count < cap) st.count++;
  }
  let s = st.sum;
  if (len !== st.len) {
    s = 0;
    for (let k = Math.min(st.count, len) - 1; k >= 0; k--) s += back(st, k);
    st.len = len;
  } else if (pushed) {
    if (st.count > len) s = s - back(st, len);
    s = s + x;
    // as the kernel (assembly/avg.ts): once an infinity left the window, re-sum what is there now
    if (s - s !== 0) {
      s = 0;
      for (let k = Math.min(st.count, len) - 1; k >= 0; k--) s += back(st, k);
    }
  }
  st.sum = s;
  if (st.count < len) return NaN;
  return Math.abs(s) <= ZERO_SUM ? 0 : s;
}
