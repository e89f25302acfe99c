// A result field built on first read (a run's events, a strategy's trades and equity curve): most
// runs' results (optimize trials, benches, callers that read a summary) never read them, so they
// stay in the run's own compact form until then. The first read, or a write, turns the accessor
// into a plain data property: JSON.stringify, structured clone (workers), spreads and
// Object.keys/entries see an ordinary enumerable property either way.

/** Makes `obj[key]` an accessor that builds its value with `build` on first read, then a data property. */
export function lazyProperty<T extends object, K extends keyof T>(obj: T, key: K, build: () => T[K]): void {
  const settle = (value: T[K]): T[K] => {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(build()),
    set: (v: T[K]) => void settle(v),
  });
}
