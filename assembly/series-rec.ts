// Whole-series passes of the recursive ta.* (ema, rma, macd, atr, rsi, cross): one loop over the
// columns with the state in locals. Each step is the per-bar state machine's step, the same
// operations in the same order (avg.ts ema_next, osc.ts rsi_next/rsiStep, misc.ts tr_next, window.ts
// cross_next): na input -> na out with the state untouched, the seed is the compensated mean of the
// first `len` non-na values taken with avg.ts's own seedAdd/seedSum (a 16-byte scratch, touched only
// while seeding). The steady step is a latency-bound chain (ema: sub, mul, add; rma: mul, add, div),
// which is what bounds these passes; tests/kernels/series.test.ts checks them against the state
// machines bit for bit.
import { alloc, heap_top, heap_set } from "./mem";
import { seedAdd, seedSum } from "./avg";
import { ld, st, ldv, stv, fillNaN } from "./series-util";

// ---------------------------------------------------------------- ema / rma

/** ema (kind 0) / rma (kind 1), as ema_next on every bar. */
export function series_ema(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const seed = alloc(16);
  const fl = <f64>len;
  let e: f64 = NaN;
  let cnt = 0;
  let i = 0;
  // the first len non-na values make the seed
  for (; i < n && cnt < len; i++) {
    const x = ld(inp, i);
    if (x == x) {
      seedAdd(seed, x);
      if (++cnt == len) e = seedSum(seed) / fl;
      st(out, i, e);
    } else st(out, i, NaN);
  }
  heap_set(mark);
  if (kind == 0) {
    const a = 2.0 / <f64>(len + 1);
    for (; i < n; i++) {
      const x = ld(inp, i);
      if (x == x) {
        e = e + a * (x - e);
        st(out, i, e);
      } else st(out, i, NaN);
    }
  } else {
    const f1 = <f64>(len - 1);
    for (; i < n; i++) {
      const x = ld(inp, i);
      if (x == x) {
        e = (f1 * e + x) / fl;
        st(out, i, e);
      } else st(out, i, NaN);
    }
  }
}

// ---------------------------------------------------------------- macd

/** ta.macd: m = ema(x, fast) - ema(x, slow), signal = ema(m, sig), histogram = m - signal, as the
 * impl's three ema_next calls a bar (an na m leaves the signal's ema untouched). */
export function series_macd(inp: usize, m: usize, sg: usize, hs: usize, n: i32, fast: i32, slow: i32, sig: i32): void {
  const mark = heap_top();
  const seedF = alloc(16);
  const seedS = alloc(16);
  const seedG = alloc(16);
  // a length < 1 never seeds: its ema stays na (ema_next)
  const ff = <f64>fast, fs = <f64>slow, fg = <f64>sig;
  const af = 2.0 / <f64>(fast + 1), asl = 2.0 / <f64>(slow + 1), ag = 2.0 / <f64>(sig + 1);
  let ef: f64 = NaN, es: f64 = NaN, eg: f64 = NaN;
  let cf = 0, cs = 0, cg = 0;
  let i = 0;
  // until all three are seeded (or cannot be), each step checks its seed count
  for (; i < n && (cf < fast || cs < slow || cg < sig); i++) {
    const x = ld(inp, i);
    let mv: f64 = NaN;
    if (x == x) {
      if (fast < 1) {
        ef = NaN;
      } else if (cf < fast) {
        seedAdd(seedF, x);
        if (++cf == fast) ef = seedSum(seedF) / ff;
      } else ef = ef + af * (x - ef);
      if (slow < 1) {
        es = NaN;
      } else if (cs < slow) {
        seedAdd(seedS, x);
        if (++cs == slow) es = seedSum(seedS) / fs;
      } else es = es + asl * (x - es);
      mv = ef - es;
    }
    let sv: f64 = NaN;
    if (mv == mv) {
      if (sig < 1) {
        eg = NaN;
      } else if (cg < sig) {
        seedAdd(seedG, mv);
        if (++cg == sig) eg = seedSum(seedG) / fg;
      } else eg = eg + ag * (mv - eg);
      sv = eg;
    }
    st(m, i, mv);
    st(sg, i, sv);
    st(hs, i, mv - sv);
  }
  heap_set(mark);
  for (; i < n; i++) {
    const x = ld(inp, i);
    let mv: f64 = NaN;
    let sv: f64 = NaN;
    if (x == x) {
      ef = ef + af * (x - ef);
      es = es + asl * (x - es);
      mv = ef - es;
      // an infinite input can make m na after the seeds: the signal then stays as it was
      if (mv == mv) {
        eg = eg + ag * (mv - eg);
        sv = eg;
      }
    }
    st(m, i, mv);
    st(sg, i, sv);
    st(hs, i, mv - sv);
  }
}

// ---------------------------------------------------------------- atr

/** ATR = rma(tr(true), len), as tr_next + ema_next: the true range uses the previous bar's close
 * (high - low when it is na), an na true range leaves the rma untouched. */
export function series_atr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const seed = alloc(16);
  const fl = <f64>len;
  const f1 = <f64>(len - 1);
  let pc: f64 = NaN;
  let e: f64 = NaN;
  let cnt = 0;
  let i = 0;
  for (; i < n && cnt < len; i++) {
    const h = ld(hi, i);
    const l = ld(lo, i);
    const tr = pc != pc ? h - l : Math.max(Math.max(h - l, Math.abs(h - pc)), Math.abs(l - pc));
    pc = ld(cl, i);
    if (tr == tr) {
      seedAdd(seed, tr);
      if (++cnt == len) e = seedSum(seed) / fl;
      st(out, i, e);
    } else st(out, i, NaN);
  }
  heap_set(mark);
  // past the seed (i >= 1): two bars' true ranges at once, branch-free (a scalar max is a branch on
  // the data), then the rma steps one after the other
  for (; i + 2 <= n; i += 2) {
    const h = ldv(hi, i);
    const l = ldv(lo, i);
    const c = ldv(cl, i - 1);
    const hl = f64x2.sub(h, l);
    let tr = f64x2.max(f64x2.max(hl, f64x2.abs(f64x2.sub(h, c))), f64x2.abs(f64x2.sub(l, c)));
    tr = v128.bitselect(hl, tr, f64x2.ne(c, c));
    const t0 = f64x2.extract_lane(tr, 0);
    if (t0 == t0) {
      e = (f1 * e + t0) / fl;
      st(out, i, e);
    } else st(out, i, NaN);
    const t1 = f64x2.extract_lane(tr, 1);
    if (t1 == t1) {
      e = (f1 * e + t1) / fl;
      st(out, i + 1, e);
    } else st(out, i + 1, NaN);
  }
  if (i < n) {
    const h = ld(hi, i);
    const l = ld(lo, i);
    pc = ld(cl, i - 1);
    const tr = pc != pc ? h - l : Math.max(Math.max(h - l, Math.abs(h - pc)), Math.abs(l - pc));
    if (tr == tr) {
      e = (f1 * e + tr) / fl;
      st(out, i, e);
    } else st(out, i, NaN);
  }
}

// ---------------------------------------------------------------- rsi

/** ta.rsi as rsi_next: rma of the up and down moves, seeded together; an na move (na source now or
 * on the bar before) is na and leaves both averages untouched. */
export function series_rsi(inp: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const seedU = alloc(16);
  const seedD = alloc(16);
  const fl = <f64>len;
  const f1 = <f64>(len - 1);
  let p: f64 = NaN;
  let ru: f64 = NaN;
  let rd: f64 = NaN;
  let cnt = 0;
  let i = 0;
  for (; i < n && cnt < len; i++) {
    const x = ld(inp, i);
    const u = Math.max(x - p, 0);
    const d = Math.max(p - x, 0);
    p = x;
    if (u == u && d == d) {
      seedAdd(seedU, u);
      seedAdd(seedD, d);
      if (++cnt == len) {
        ru = seedSum(seedU) / fl;
        rd = seedSum(seedD) / fl;
      }
    }
    st(out, i, rsiOf(u, d, ru, rd));
  }
  heap_set(mark);
  // the two averages step together in the lanes of r = (up, down): one division for both; two bars
  // a step, their results computed together (the divisions bound this loop)
  let r = f64x2.replace_lane(f64x2.splat(ru), 1, rd);
  const f1v = f64x2.splat(f1);
  const flv = f64x2.splat(fl);
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const hundred = f64x2.splat(100);
  const nan = f64x2.splat(NaN);
  for (; i + 2 <= n; i += 2) {
    const x0 = ld(inp, i);
    const ud0 = moves(x0, p);
    p = x0;
    if (f64x2.extract_lane(ud0, 0) == f64x2.extract_lane(ud0, 0) && f64x2.extract_lane(ud0, 1) == f64x2.extract_lane(ud0, 1)) {
      r = f64x2.div(f64x2.add(f64x2.mul(f1v, r), ud0), flv);
    }
    const r0 = r;
    const x1 = ld(inp, i + 1);
    const ud1 = moves(x1, p);
    p = x1;
    if (f64x2.extract_lane(ud1, 0) == f64x2.extract_lane(ud1, 0) && f64x2.extract_lane(ud1, 1) == f64x2.extract_lane(ud1, 1)) {
      r = f64x2.div(f64x2.add(f64x2.mul(f1v, r), ud1), flv);
    }
    // lanes: bar i, bar i + 1 (rsiOf's cases, the later ones first so the earlier ones win)
    const U = v128.shuffle<f64>(ud0, ud1, 0, 2);
    const D = v128.shuffle<f64>(ud0, ud1, 1, 3);
    const RU = v128.shuffle<f64>(r0, r, 0, 2);
    const RD = v128.shuffle<f64>(r0, r, 1, 3);
    let v = f64x2.sub(hundred, f64x2.div(hundred, f64x2.add(one, f64x2.div(RU, RD))));
    v = v128.bitselect(zero, v, f64x2.eq(RU, zero));
    v = v128.bitselect(hundred, v, f64x2.eq(RD, zero));
    const na = v128.or(v128.or(f64x2.ne(U, U), f64x2.ne(D, D)), v128.or(f64x2.ne(RU, RU), f64x2.ne(RD, RD)));
    stv(out, i, v128.bitselect(nan, v, na));
  }
  for (; i < n; i++) {
    const x = ld(inp, i);
    const ud = moves(x, p);
    p = x;
    const u = f64x2.extract_lane(ud, 0);
    const d = f64x2.extract_lane(ud, 1);
    if (u == u && d == d) r = f64x2.div(f64x2.add(f64x2.mul(f1v, r), ud), flv);
    st(out, i, rsiOf(u, d, f64x2.extract_lane(r, 0), f64x2.extract_lane(r, 1)));
  }
}

/** (max(x - p, 0), max(p - x, 0)): the up and down moves, as Math.max does it a lane. */
@inline function moves(x: f64, p: f64): v128 {
  const xp = f64x2.replace_lane(f64x2.splat(x), 1, p);
  return f64x2.max(f64x2.sub(xp, v128.shuffle<f64>(xp, xp, 1, 0)), f64x2.splat(0));
}

@inline function rsiOf(u: f64, d: f64, ru: f64, rd: f64): f64 {
  if (u != u || d != d || ru != ru || rd != rd) return NaN;
  if (rd == 0) return 100.0;
  if (ru == 0) return 0.0;
  return 100.0 - 100.0 / (1.0 + ru / rd);
}

// ---------------------------------------------------------------- cross

/** ta.cross (kind 0), crossover (1), crossunder (2) of two columns, as 1/0 (cross_next): the
 * previous pair is the last one with both values defined. */
export function series_cross(a: usize, b: usize, out: usize, n: i32, kind: i32): void {
  if (kind == 1) crossLoop(a, b, out, n, 1);
  else if (kind == 2) crossLoop(a, b, out, n, 2);
  else crossLoop(a, b, out, n, 0);
}

@inline function crossLoop(a: usize, b: usize, out: usize, n: i32, kind: i32): void {
  let pa: f64 = NaN;
  let pb: f64 = NaN;
  for (let i = 0; i < n; i++) {
    const x = ld(a, i);
    const y = ld(b, i);
    let r = false;
    if (x == x && y == y) {
      const over = x > y && pa <= pb;
      const under = x < y && pa >= pb;
      r = kind == 1 ? over : kind == 2 ? under : over || under;
      pa = x;
      pb = y;
    }
    st(out, i, r ? 1.0 : 0.0);
  }
}
