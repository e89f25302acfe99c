// Value equality of two number columns, for caches that serve a caller's column again only while it
// still holds what it held when the cached answer was made (runtime/bar-close.ts, core/time-resample.ts).

/** Whether a and b hold the same values (Object.is, so a NaN equals a NaN and -0 differs from 0). */
export function sameValues(a: Float64Array, b: Float64Array): boolean {
  const n = a.length;
  if (b.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    // (x !== y alone: the common case; Object.is only for the rare equal-or-NaN pair)
    if (x !== y ? x === x || y === y : x === 0 && 1 / x !== 1 / y) return false;
  }
  return true;
}
