// Values built in the shape they keep: V8 specialises optimised code on the maps (hidden classes) it
// saw, and an array created empty starts in the small-integer elements kind, changing kind (and map)
// at its first push of an object or a double. Code optimised on one run's arrays, already changed,
// then meets the next run's fresh ones and deoptimises ("wrong map"); so arrays a run creates for
// objects or doubles are created in that kind from the start (issue 18, warm-up).

/** An empty array in the elements kind of object values (also strings and null). */
export function objectArray<T>(): T[] {
  const a = [null] as unknown as T[];
  a.length = 0;
  return a;
}

/**
 * Cuts `a` to its first `n` values with pop: assigning `length` is a runtime call (~40 ns a cut of
 * a short array), pop is inlined; a short array keeps its backing store for the next pushes.
 */
export function truncate<T>(a: T[], n: number): void {
  while (a.length > n) a.pop();
}

/**
 * Takes `x` out of `a`, the others keeping their order: false when it is not there. Not splice,
 * which returns a new array (an allocation and a runtime call for each removal).
 */
export function removeItem<T>(a: T[], x: T): boolean {
  const n = a.length;
  let i = 0;
  while (i < n && a[i] !== x) i++;
  if (i === n) return false;
  for (; i + 1 < n; i++) a[i] = a[i + 1] as T;
  a.pop();
  return true;
}

/** An empty array in the elements kind of doubles (times, prices: numbers past the small-integer range or fractional). */
export function doubleArray(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}

/** `n` slots holding undefined, in the elements kind of object values (reads as `new Array(n)` does). */
export function objectSlots(n: number): unknown[] {
  return new Array<unknown>(n).fill(undefined);
}
