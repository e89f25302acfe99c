// Plain-JS reference implementations of the ta.* algorithms, written naively over whole arrays
// (each bar recomputed from the window, except the running window sums of sma/sum), to cross-check the WASM state machines and series kernels.
// NaN = na. "Skip" functions use the last `len` non-na values; the rest use the last `len` bars.

export type Series = ArrayLike<number>;

/** The last `len` non-na values up to bar i, oldest first (null when fewer). */
function lastValid(x: Series, i: number, len: number): number[] | null {
  const out: number[] = [];
  for (let j = i; j >= 0 && out.length < len; j--) if (x[j] === x[j]) out.push(x[j]);
  return out.length < len ? null : out.reverse();
}

/** The last `len` bars up to bar i, oldest first (null when fewer). */
function lastBars(x: Series, i: number, len: number): number[] | null {
  if (i + 1 < len) return null;
  return Array.from({ length: len }, (_, k) => x[i - len + 1 + k]);
}

const map = (x: Series, f: (i: number) => number): Float64Array =>
  Float64Array.from({ length: x.length }, (_, i) => f(i));

/**
 * Window sums the way TradingView keeps them (assembly/avg.ts): one running sum over the non-na values
 * in which the value leaving the window is taken out BEFORE the new one is added, its rounding carried
 * from the first value; a sum within 1e-10 of zero reads as 0.
 */
function runningSums(x: Series, len: number): Float64Array {
  const held: number[] = [];
  let s = 0;
  return map(x, (i) => {
    const v = x[i];
    if (v === v) {
      held.push(v);
      if (held.length > len) s = s - held[held.length - 1 - len];
      s = s + v;
    }
    return held.length < len ? NaN : Math.abs(s) <= 1e-10 ? 0 : s;
  });
}

export function sma(x: Series, len: number): Float64Array {
  return runningSums(x, len).map((s) => s / len);
}

export function sum(x: Series, len: number): Float64Array {
  return runningSums(x, len);
}

/** The window summed afresh, oldest first: what the kernels do on a bar whose length changed. */
export function smaFresh(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const w = lastValid(x, i, len);
    if (!w) return NaN;
    let s = 0;
    for (const v of w) s += v;
    return s / len;
  });
}

export function variance(x: Series, len: number, biased = true): Float64Array {
  return map(x, (i) => {
    const w = lastValid(x, i, len);
    if (!w) return NaN;
    let s = 0;
    let s2 = 0;
    for (const v of w) {
      s += v;
      s2 += v * v;
    }
    const m = s / len;
    const r = biased ? s2 / len - m * m : s2 / (len - 1) - (m * m * len) / (len - 1);
    return r < 0 ? 0 : r;
  });
}

/** Two-pass population stdev (ta.bb's). */
export function stdev2(x: Series, len: number): Float64Array {
  const mean = sma(x, len);
  return map(x, (i) => {
    const w = lastValid(x, i, len);
    if (!w) return NaN;
    const m = mean[i];
    let q = 0;
    for (let k = w.length - 1; k >= 0; k--) {
      let d = w[k] + -m;
      if (Math.abs(d) <= 1e-10) d = 0;
      q += d * d;
    }
    return Math.sqrt(q / len);
  });
}

export function dev(x: Series, len: number): Float64Array {
  const m = sma(x, len);
  return map(x, (i) => {
    const w = lastValid(x, i, len);
    // an na among the last len bars makes it na (the reference's loop over source[i])
    if (!w || lastBars(x, i, len)?.some((v) => v !== v)) return NaN;
    let a = 0;
    for (let k = w.length - 1; k >= 0; k--) a += Math.abs(w[k] - m[i]);
    return a / len;
  });
}

/** Sum of the values without rounding drift: every double is an exact multiple of 2^-1074, so the sum
 * is done in integers and rounded once (to nearest, ties to even). The ema/rma seed is this sum / n. */
export function exactSum(values: readonly number[]): number {
  const SHIFT = 1074n;
  let acc = 0n;
  const view = new DataView(new ArrayBuffer(8));
  for (const v of values) {
    view.setFloat64(0, v);
    const bits = view.getBigUint64(0);
    const exp = Number((bits >> 52n) & 0x7ffn);
    let man = bits & ((1n << 52n) - 1n);
    if (exp !== 0) man |= 1n << 52n;
    const scaled = man << BigInt(Math.max(exp, 1) - 1);
    acc += bits >> 63n ? -scaled : scaled;
  }
  if (acc === 0n) return 0;
  const neg = acc < 0n;
  const mag = neg ? -acc : acc;
  const bitsLen = mag.toString(2).length;
  const drop = Math.max(bitsLen - 53, 0);
  let q = mag >> BigInt(drop);
  if (drop > 0) {
    const rem = mag & ((1n << BigInt(drop)) - 1n);
    const half = 1n << BigInt(drop - 1);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  }
  const r = Number(q) * 2 ** (drop - Number(SHIFT));
  return neg ? -r : r;
}

export function ema(x: Series, len: number, rma = false): Float64Array {
  const seed: number[] = [];
  let e = NaN;
  return map(x, (i) => {
    const v = x[i];
    // an na bar: na out, state untouched
    if (v !== v) return NaN;
    if (seed.length < len) {
      seed.push(v);
      if (seed.length === len) e = exactSum(seed) / len;
    } else e = rma ? ((len - 1) * e + v) / len : e + (2 / (len + 1)) * (v - e);
    return e;
  });
}

export function wma(x: Series, len: number): Float64Array {
  // na bars carry the last non-na value
  let last = NaN;
  const filled = map(x, (i) => (x[i] === x[i] ? (last = x[i]) : last));
  return map(x, (i) => {
    const w = lastBars(filled, i, len);
    // the na bar itself is na
    if (!w || x[i] !== x[i]) return NaN;
    let s = 0;
    for (let k = 0; k < len; k++) s += (k + 1) * w[k];
    return s / ((len * (len + 1)) / 2);
  });
}

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars (ties: the oldest bar). Only the bars
 * after the window's most recent na count; an na bar gives na (0 for the *bars kinds). */
export function hilo(x: Series, len: number, kind: number): Float64Array {
  return map(x, (i) => {
    const w = lastBars(x, i, len);
    if (!w) return NaN;
    if (w[len - 1] !== w[len - 1]) return kind < 2 ? NaN : 0;
    let best = NaN;
    let at = -1;
    for (let k = 0; k < len; k++) {
      const v = w[k];
      if (v !== v) {
        at = -1;
        continue;
      }
      if (at < 0 || ((kind & 1) === 0 ? v > best : v < best)) {
        best = v;
        at = k;
      }
    }
    return kind < 2 ? best : at - (len - 1);
  });
}

export function change(x: Series, len = 1): Float64Array {
  return map(x, (i) => (i >= len ? x[i] - x[i - len] : NaN));
}

export function tr(h: Series, l: Series, c: Series, handleNa: boolean): Float64Array {
  return map(c, (i) => {
    const pc = i > 0 ? c[i - 1] : NaN;
    if (pc !== pc) return handleNa ? h[i] - l[i] : NaN;
    return Math.max(Math.max(h[i] - l[i], Math.abs(h[i] - pc)), Math.abs(l[i] - pc));
  });
}

export function atr(h: Series, l: Series, c: Series, len: number): Float64Array {
  return ema(tr(h, l, c, true), len, true);
}

export function rsi(x: Series, len: number): Float64Array {
  const u = map(x, (i) => (i > 0 ? Math.max(x[i] - x[i - 1], 0) : NaN));
  const d = map(x, (i) => (i > 0 ? Math.max(x[i - 1] - x[i], 0) : NaN));
  const ru = ema(u, len, true);
  const rd = ema(d, len, true);
  return map(x, (i) =>
    ru[i] !== ru[i] || rd[i] !== rd[i] ? NaN : rd[i] === 0 ? 100 : ru[i] === 0 ? 0 : 100 - 100 / (1 + ru[i] / rd[i]),
  );
}

/** Sorted non-na values of the last `len` bars, plus whether any was na. */
function sortedWindow(x: Series, i: number, len: number): { v: number[]; na: boolean } | null {
  const w = lastBars(x, i, len);
  if (!w) return null;
  const v = w.filter((a) => a === a).sort((a, b) => a - b);
  return { v, na: v.length < w.length };
}

/** Sorted last `len` non-na values (median, mode, range skip na). */
function sortedValid(x: Series, i: number, len: number): { v: number[]; na: boolean } | null {
  const w = lastValid(x, i, len);
  return w ? { v: w.sort((a, b) => a - b), na: false } : null;
}

export function range(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const s = sortedValid(x, i, len);
    return s ? s.v[s.v.length - 1] - s.v[0] : NaN;
  });
}

export function median(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const s = sortedValid(x, i, len);
    if (!s?.v.length) return NaN;
    const m = s.v.length;
    return m % 2 ? s.v[m >> 1] : (s.v[m / 2 - 1] + s.v[m / 2]) / 2;
  });
}

export function mode(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const s = sortedValid(x, i, len);
    if (!s?.v.length) return NaN;
    const counts = new Map<number, number>();
    for (const v of s.v) counts.set(v, (counts.get(v) ?? 0) + 1);
    let best = NaN;
    let bc = 0;
    for (const [v, c] of counts) if (c > bc || (c === bc && v < best)) [best, bc] = [v, c];
    return best;
  });
}

export function percentileNearestRank(x: Series, len: number, p: number): Float64Array {
  return map(x, (i) => {
    const s = sortedWindow(x, i, len);
    if (!s?.v.length) return NaN;
    const r = Math.min(Math.max(Math.ceil((p / 100) * s.v.length) - 1, 0), s.v.length - 1);
    return s.v[r];
  });
}

export function percentileLinear(x: Series, len: number, p: number): Float64Array {
  return map(x, (i) => {
    const s = sortedWindow(x, i, len);
    if (!s || s.na || !s.v.length) return NaN;
    const m = s.v.length;
    const pos = (m * p) / 100 - 0.5;
    if (pos <= 0) return s.v[0];
    if (pos >= m - 1) return s.v[m - 1];
    const lo = Math.floor(pos);
    return s.v[lo] + (pos - lo) * (s.v[lo + 1] - s.v[lo]);
  });
}

export function percentrank(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    if (i < len) return NaN;
    // na compares false: never counted
    let c = 0;
    for (let k = 1; k <= len; k++) if (x[i - k] - x[i] <= 1e-10) c++;
    return (100 * c) / len;
  });
}

/** Spearman rank correlation of price against time (newest = rank 1), x100. */
export function rci(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const w = lastBars(x, i, len);
    if (!w || w.some((v) => v !== v)) return NaN;
    const newestFirst = w.slice().reverse();
    const ranks = newestFirst.map((v) => {
      const greater = newestFirst.filter((u) => u > v).length;
      const equal = newestFirst.filter((u) => u === v).length;
      return greater + (equal + 1) / 2;
    });
    const tied = new Set(newestFirst).size < len;
    if (!tied) {
      const d2 = ranks.reduce((s, r, t) => s + (r - (t + 1)) ** 2, 0);
      return (1 - (6 * d2) / (len * (len * len - 1))) * 100;
    }
    // ties: Pearson correlation of the (average) price ranks with the time ranks
    const mean = (len + 1) / 2;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    ranks.forEach((r, t) => {
      sxy += (r - mean) * (t + 1 - mean);
      sxx += (r - mean) ** 2;
      syy += (t + 1 - mean) ** 2;
    });
    return sxx === 0 ? NaN : (sxy / Math.sqrt(sxx * syy)) * 100;
  });
}

/** Runs of bar-to-bar rises (falls) beyond 1e-10; a step touching an na neither counts nor breaks. */
export function rising(x: Series, len: number, dir: 1 | -1): Float64Array {
  let run = 0;
  return map(x, (i) => {
    if (i > 0 && x[i] === x[i] && x[i - 1] === x[i - 1]) {
      const d = dir > 0 ? x[i] - x[i - 1] : x[i - 1] - x[i];
      run = d > 1e-10 ? run + 1 : 0;
    }
    return run >= len ? 1 : 0;
  });
}

export function swma(x: Series): Float64Array {
  // weights (1, 2, 2, 1) summed newest first, over their total 6
  return map(x, (i) => (i < 3 ? NaN : (x[i] * 1 + x[i - 1] * 2 + x[i - 2] * 2 + x[i - 3] * 1) / 6));
}

export function alma(x: Series, len: number, offset: number, sigma: number, floor = false): Float64Array {
  return map(x, (i) => {
    const w = lastBars(x, i, len);
    if (!w) return NaN;
    const m = floor ? Math.floor(offset * (len - 1)) : offset * (len - 1);
    const s = len / sigma;
    const wt = Array.from({ length: len }, (_, k) => Math.exp((-1 * ((k - m) * (k - m))) / (2 * (s * s))));
    const norm = wt.reduce((a, b) => a + b, 0);
    // normalised weights, applied oldest first
    let sum = 0;
    for (let k = 0; k < len; k++) sum += w[k] * (wt[k] / norm);
    return sum;
  });
}

export function cog(x: Series, len: number): Float64Array {
  return map(x, (i) => {
    const w = lastBars(x, i, len);
    if (!w) return NaN;
    let s = 0;
    let num = 0;
    for (let k = 0; k < len; k++) s += w[k];
    for (let k = 0; k < len; k++) num += w[len - 1 - k] * (k + 1);
    return -num / s;
  });
}

export function linreg(x: Series, len: number, offset: number): Float64Array {
  return map(x, (i) => {
    const w = lastBars(x, i, len);
    if (!w) return NaN;
    let sx = 0,
      sy = 0,
      sxx = 0,
      sxy = 0;
    for (let j = 0; j < len; j++) {
      sx += j;
      sy += w[j];
      sxx += j * j;
      sxy += j * w[j];
    }
    const den = len * sxx - sx * sx;
    const slope = den === 0 ? 0 : (len * sxy - sx * sy) / den;
    const intercept = (sy - slope * sx) / len;
    return intercept + slope * (len - 1 - offset);
  });
}

export function pivot(x: Series, left: number, right: number, high: boolean): Float64Array {
  return map(x, (i) => {
    const c = i - right;
    if (c - left < 0 || x[c] !== x[c]) return NaN;
    // left side: a tie is allowed, the scan stops at an na
    for (let j = c - 1; j >= c - left; j--) {
      const y = x[j];
      if (y !== y) break;
      if (high ? y > x[c] : y < x[c]) return NaN;
    }
    // right side: must be strictly beaten, the scan stops at an na
    for (let j = c + 1; j <= i; j++) {
      const y = x[j];
      if (y !== y) break;
      if (high ? y >= x[c] : y <= x[c]) return NaN;
    }
    return x[c];
  });
}

/** Against the last pair with both values defined (na bars are skipped). */
export function cross(a: Series, b: Series, kind: 0 | 1 | 2): Float64Array {
  let pa = NaN;
  let pb = NaN;
  return map(a, (i) => {
    if (a[i] !== a[i] || b[i] !== b[i]) return 0;
    const over = a[i] > b[i] && pa <= pb;
    const under = a[i] < b[i] && pa >= pb;
    pa = a[i];
    pb = b[i];
    return (kind === 1 ? over : kind === 2 ? under : over || under) ? 1 : 0;
  });
}

/** na before the first value and on every na bar (which adds nothing). */
export function cum(x: Series): Float64Array {
  let s = NaN;
  return map(x, (i) => (x[i] === x[i] ? (s = s !== s ? x[i] : s + x[i]) : NaN));
}
