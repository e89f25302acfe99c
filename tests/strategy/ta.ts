// Plain whole-series indicator helpers for the direct conformance harness (not the runtime's ta.*):
// written straight from TradingView's documented definitions, na = NaN.

/**
 * Simple moving average as a rolling sum, oldest value taken out before the new one is added. That
 * order matters for the float noise that decides exact-tie crossovers: it reproduces the two ties of
 * the futures_pnl export (bars 5423: no cross, 7528: cross), which a fresh sum per bar gets wrong.
 */
export function sma(src: ArrayLike<number>, len: number): Float64Array {
  const out = new Float64Array(src.length).fill(NaN);
  let sum = 0;
  let valid = 0;
  for (let i = 0; i < src.length; i++) {
    if (i >= len) {
      const old = src[i - len];
      if (old === old) {
        sum -= old;
        valid--;
      }
    }
    const v = src[i];
    if (v === v) {
      sum += v;
      valid++;
    }
    if (i >= len - 1 && valid === len) out[i] = sum / len;
  }
  return out;
}

/** Population standard deviation around the window's SMA (ta.stdev, biased = true). */
export function stdev(src: ArrayLike<number>, len: number): Float64Array {
  const avg = sma(src, len);
  const out = new Float64Array(src.length).fill(NaN);
  for (let i = len - 1; i < src.length; i++) {
    const m = avg[i];
    if (m !== m) continue;
    let s = 0;
    for (let j = i - len + 1; j <= i; j++) {
      const d = src[j] - m;
      s += d * d;
    }
    out[i] = Math.sqrt(s / len);
  }
  return out;
}

/** EMA seeded with the SMA of the first full window (Pine's documented pine_ema). */
export function ema(src: ArrayLike<number>, len: number): Float64Array {
  return smoothed(src, len, 2 / (len + 1));
}

/** RMA (Wilder) seeded with the SMA of the first full window. */
export function rma(src: ArrayLike<number>, len: number): Float64Array {
  return smoothed(src, len, 1 / len);
}

function smoothed(src: ArrayLike<number>, len: number, alpha: number): Float64Array {
  const seed = sma(src, len);
  const out = new Float64Array(src.length).fill(NaN);
  let prev = NaN;
  for (let i = 0; i < src.length; i++) {
    if (prev !== prev) prev = seed[i];
    else prev = alpha * src[i] + (1 - alpha) * prev;
    out[i] = prev;
  }
  return out;
}

export function rsi(src: ArrayLike<number>, len: number): Float64Array {
  const n = src.length;
  const up = new Float64Array(n).fill(NaN);
  const dn = new Float64Array(n).fill(NaN);
  for (let i = 1; i < n; i++) {
    const ch = src[i] - src[i - 1];
    up[i] = Math.max(ch, 0);
    dn[i] = Math.max(-ch, 0);
  }
  const u = rma(up, len);
  const d = rma(dn, len);
  const out = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    if (u[i] !== u[i] || d[i] !== d[i]) continue;
    out[i] = d[i] === 0 ? 100 : u[i] === 0 ? 0 : 100 - 100 / (1 + u[i] / d[i]);
  }
  return out;
}

export function highest(src: ArrayLike<number>, len: number): Float64Array {
  const out = new Float64Array(src.length).fill(NaN);
  for (let i = len - 1; i < src.length; i++) {
    let m = -Infinity;
    for (let j = i - len + 1; j <= i; j++) if (src[j] > m) m = src[j];
    out[i] = m;
  }
  return out;
}

export function lowest(src: ArrayLike<number>, len: number): Float64Array {
  const out = new Float64Array(src.length).fill(NaN);
  for (let i = len - 1; i < src.length; i++) {
    let m = Infinity;
    for (let j = i - len + 1; j <= i; j++) if (src[j] < m) m = src[j];
    out[i] = m;
  }
  return out;
}

/** ta.crossover(a, b) at bar i (b may be a constant). */
export function crossover(a: ArrayLike<number>, b: ArrayLike<number> | number, i: number): boolean {
  if (i < 1) return false;
  const b0 = typeof b === "number" ? b : b[i];
  const b1 = typeof b === "number" ? b : b[i - 1];
  return a[i] > b0 && a[i - 1] <= b1;
}

export function crossunder(a: ArrayLike<number>, b: ArrayLike<number> | number, i: number): boolean {
  if (i < 1) return false;
  const b0 = typeof b === "number" ? b : b[i];
  const b1 = typeof b === "number" ? b : b[i - 1];
  return a[i] < b0 && a[i - 1] >= b1;
}
