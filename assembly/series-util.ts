// Column helpers shared by the whole-series passes (series.ts, series-rec.ts, series-hilo.ts).
// Columns are f64 arrays in kernel memory; indices are never negative.
@inline export function ld(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

@inline export function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v);
}

@inline export function ldv(p: usize, i: i32): v128 {
  return v128.load(p + (<usize>i << 3));
}

@inline export function stv(p: usize, i: i32, v: v128): void {
  v128.store(p + (<usize>i << 3), v);
}

export function fillNaN(out: usize, n: i32): void {
  for (let i = 0; i < n; i++) st(out, i, NaN);
}

/** Whether the column holds an na (NaN); four values a step (a read-only pass, bandwidth-bound). */
export function hasNaN(inp: usize, n: i32): bool {
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const a = ldv(inp, i);
    const b = ldv(inp, i + 2);
    const c = ldv(inp, i + 4);
    const d = ldv(inp, i + 6);
    const m = v128.or(v128.or(f64x2.ne(a, a), f64x2.ne(b, b)), v128.or(f64x2.ne(c, c), f64x2.ne(d, d)));
    if (v128.any_true(m)) return true;
  }
  for (; i < n; i++) {
    const x = ld(inp, i);
    if (x != x) return true;
  }
  return false;
}

/** Copies the non-na values of inp, in order, to buf (room for n); returns their count. */
export function compact(inp: usize, n: i32, buf: usize): i32 {
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) st(buf, j++, x);
  }
  return j;
}
