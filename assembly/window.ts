// Windowed extremes and comparisons over the last `length` calls: highest/lowest(+bars) with a
// monotonic deque, rising/falling, percentrank, pivots, all-time max/min, cross detection.
// na rules (TradingView's outputs on periodic series with na holes, published with LuxAlgo/PineTS's
// tests/namespaces/ta/na-window-semantics.test.ts and tie-handling.test.ts): a window extreme only
// looks at the bars since the most recent na, and a pivot scan stops at the first na on either side.
import { S0, alloc, stateNew, begin, ringEnsure, ringPush, ringGet, ringAt, ringCount, ringPushes, ringCap } from "./mem";
import { beginBars } from "./avg";

/** Values every windowed state keeps from the start: a series length may grow later (see avg.ts). */
const HISTORY: i32 = 512;

@inline function ringFor(len: i32): i32 {
  return len < HISTORY ? HISTORY : len + 1;
}

// TradingView compares these with a 1e-10 absolute tolerance (ta_test_241).
const EPS: f64 = 1e-10;

// ---------------------------------------------------------------- highest / lowest (+bars)
// scalars: S0 u32 deque ptr, S0+4 i32 deque capacity, S0+8 i32 head, S0+12 i32 tail,
//          S0+16 i32 length, S0+20 i32 kind (0 highest, 1 lowest, 2 highestbars, 3 lowestbars)
// The deque holds push sequence numbers whose values decrease (highest) / increase (lowest) from
// head to tail; the oldest of equal values wins, so ties report the oldest bar (as TradingView).
// An na empties it: the bars before an na never take part again (TradingView resets at na), and on
// the na bar itself highest/lowest are na and highestbars/lowestbars 0.

export function hilo_new(len: i32, kind: i32): usize {
  const h = stateNew(S0 + 24, ringFor(len));
  store<i32>(h, len, S0 + 16);
  store<i32>(h, kind, S0 + 20);
  dqAlloc(h);
  return h;
}

function dqAlloc(h: usize): void {
  const cap = ringCap(h);
  store<u32>(h, <u32>alloc(<usize>cap << 2), S0);
  store<i32>(h, cap, S0 + 4);
}

@inline function dqGet(h: usize, i: i32): i32 {
  return load<i32>(<usize>load<u32>(h, S0) + (<usize>(i & (load<i32>(h, S0 + 4) - 1)) << 2));
}

@inline function dqSet(h: usize, i: i32, seq: i32): void {
  store<i32>(<usize>load<u32>(h, S0) + (<usize>(i & (load<i32>(h, S0 + 4) - 1)) << 2), seq);
}

/** Adds push `seq` (value x) to the deque and drops entries that left a `len` window. */
function dqAdd(h: usize, seq: i32, x: f64, len: i32, low: bool): void {
  let head = load<i32>(h, S0 + 8);
  let tail = load<i32>(h, S0 + 12);
  if (x == x) {
    while (tail > head) {
      const v = ringAt(h, dqGet(h, tail - 1));
      if (low ? v > x : v < x) tail--;
      else break;
    }
    dqSet(h, tail, seq);
    tail++;
  } else {
    head = tail;
  }
  while (head < tail && dqGet(h, head) <= seq - len) head++;
  store<i32>(h, head, S0 + 8);
  store<i32>(h, tail, S0 + 12);
}

function dqRebuild(h: usize, len: i32, low: bool): void {
  if (load<i32>(h, S0 + 4) != ringCap(h)) dqAlloc(h);
  store<i32>(h, 0, S0 + 8);
  store<i32>(h, 0, S0 + 12);
  const n = ringPushes(h);
  const held = ringCount(h) < len ? ringCount(h) : len;
  const from = n - held;
  for (let s = from; s < n; s++) dqAdd(h, s, ringAt(h, s), len, low);
}

export function hilo_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  const rolled = begin(h, bar);
  if (len < 1) return NaN;
  const kind = load<i32>(h, S0 + 20);
  const low = (kind & 1) == 1;
  const grew = ringEnsure(h, len + 1);
  ringPush(h, x);
  const n = ringPushes(h);
  if (rolled || grew || len != load<i32>(h, S0 + 16)) {
    store<i32>(h, len, S0 + 16);
    dqRebuild(h, len, low);
  } else {
    dqAdd(h, n - 1, x, len, low);
  }
  if (ringCount(h) < len) return NaN;
  if (x != x) return kind < 2 ? NaN : 0.0;
  const seq = dqGet(h, load<i32>(h, S0 + 8));
  return kind < 2 ? ringAt(h, seq) : <f64>(seq - (n - 1));
}

// ---------------------------------------------------------------- rising / falling, percentrank

export function win_new(len: i32): usize {
  return stateNew(S0, ringFor(len));
}

/** ta.rising (dir 1) / ta.falling (dir -1): true once the value rose (fell) by more than the 1e-10
 * tolerance on `len` bars in a row, each compared with the bar before it. A step where either value
 * is na neither counts nor breaks the run (TradingView's outputs with na holes; on clean data this is
 * the monotonic reading ta/falling+rising requires). State: cross_new's two scalars, the previous
 * value (S0) and the run length (S0+8). */
export function rise_next(h: usize, bar: i32, x: f64, len: i32, dir: i32): i32 {
  begin(h, bar);
  const p = load<f64>(h, S0);
  let run = load<f64>(h, S0 + 8);
  if (run != run) run = 0;
  store<f64>(h, x, S0);
  if (x == x && p == p) {
    const d = dir > 0 ? x - p : p - x;
    run = d > EPS ? run + 1 : 0;
  }
  store<f64>(h, run, S0 + 8);
  return len >= 1 && run >= <f64>len ? 1 : 0;
}

/** Percent of the `len` previous values that are <= x (tolerant). An na compares false: it is not
 * counted, and an na x counts nothing (TradingView gives 0 there, not na). */
export function prank_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) {
    begin(h, bar);
    return NaN;
  }
  // previous values of bars: a bar without a call repeats the last call's value (avg.ts beginBars)
  beginBars(h, bar, len + 2, len);
  ringPush(h, x);
  if (ringCount(h) <= len) return NaN;
  let c = 0;
  for (let i = 1; i <= len; i++) {
    if (ringGet(h, i) - x <= EPS) c++;
  }
  return (100.0 * <f64>c) / <f64>len;
}

// ---------------------------------------------------------------- pivots
/** ta.pivothigh (kind 0) / pivotlow (kind 1): the value `right` calls ago when no bar on its left is
 * above (below) it and every bar on its right is strictly below (above) it; else na. Of equal
 * values the newest is the pivot (a left tie is allowed, a right tie is not), each side's scan stops
 * at its first na, and an na candidate is never a pivot (TradingView's outputs, see the top). */
export function pivot_next(h: usize, bar: i32, x: f64, left: i32, right: i32, kind: i32): f64 {
  if (left < 0 || right < 0) {
    begin(h, bar);
    return NaN;
  }
  const w = left + right + 1;
  // a window of bars: a bar without a call repeats the last call's value (avg.ts beginBars)
  beginBars(h, bar, w + 1, w);
  ringPush(h, x);
  if (ringCount(h) < w) return NaN;
  const c = ringGet(h, right);
  if (c != c) return NaN;
  for (let i = right + 1; i < w; i++) {
    const y = ringGet(h, i);
    if (y != y) break;
    if (kind == 0 ? y > c : y < c) return NaN;
  }
  for (let i = right - 1; i >= 0; i--) {
    const y = ringGet(h, i);
    if (y != y) break;
    if (kind == 0 ? y >= c : y <= c) return NaN;
  }
  return c;
}

// ---------------------------------------------------------------- all-time max / min
// scalars: S0 f64 value, S0+8 i32 kind (0 max, 1 min)

export function extreme_new(kind: i32): usize {
  const h = stateNew(S0 + 16, 0);
  store<f64>(h, NaN, S0);
  store<i32>(h, kind, S0 + 8);
  return h;
}

export function extreme_next(h: usize, bar: i32, x: f64): f64 {
  begin(h, bar);
  let v = load<f64>(h, S0);
  if (x == x && (v != v || (load<i32>(h, S0 + 8) == 0 ? x > v : x < v))) {
    v = x;
    store<f64>(h, v, S0);
  }
  return v;
}

// ---------------------------------------------------------------- cross
// scalars: S0 f64 previous a, S0+8 f64 previous b

export function cross_new(): usize {
  const h = stateNew(S0 + 16, 0);
  store<f64>(h, NaN, S0);
  store<f64>(h, NaN, S0 + 8);
  return h;
}

/** kind 0 cross, 1 crossover, 2 crossunder; returns 1 or 0. The previous pair is the last one with
 * both values defined: across na bars TradingView compares with the values before the gap. */
export function cross_next(h: usize, bar: i32, a: f64, b: f64, kind: i32): i32 {
  begin(h, bar);
  if (a != a || b != b) return 0;
  const pa = load<f64>(h, S0);
  const pb = load<f64>(h, S0 + 8);
  store<f64>(h, a, S0);
  store<f64>(h, b, S0 + 8);
  const over = a > b && pa <= pb;
  const under = a < b && pa >= pb;
  if (kind == 1) return over ? 1 : 0;
  if (kind == 2) return under ? 1 : 0;
  return over || under ? 1 : 0;
}
