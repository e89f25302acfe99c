// math.sum(source, length): the sum of the last `length` non-na values of source. na values are
// skipped (they neither enter the window nor reset it); na until `length` values were seen
// (logs/math_test_002_math_sum_na). The window is summed afresh each bar, oldest first, so flat
// windows are exact (logs/math_test_004: no running-sum residue).

export interface SumState {
  buf: Float64Array;
  /** Index of the next write. */
  head: number;
  /** Values seen (capped at buf.length). */
  count: number;
}

export function createSumState(capacity: number): SumState {
  return { buf: new Float64Array(Math.max(1, capacity)), head: 0, count: 0 };
}

function grow(st: SumState, capacity: number): void {
  const old = st.buf;
  const n = st.count;
  const next = new Float64Array(capacity);
  // Copy oldest..newest to the front.
  for (let k = 0; k < n; k++) next[k] = old[(st.head - n + k + old.length * 2) % old.length]!;
  st.buf = next;
  st.head = n % capacity;
}

/** Feeds one bar and returns the window sum (na while fewer than `length` values). */
export function sumStep(st: SumState, x: number, length: number): number {
  if (!(length >= 1)) return NaN;
  const len = Math.trunc(length);
  if (len > st.buf.length) grow(st, len);
  const cap = st.buf.length;
  if (x === x) {
    st.buf[st.head] = x;
    st.head = (st.head + 1) % cap;
    if (st.count < cap) st.count++;
  }
  if (st.count < len) return NaN;
  let s = 0;
  for (let k = len; k >= 1; k--) s += st.buf[(st.head - k + cap) % cap]!;
  return s;
}
