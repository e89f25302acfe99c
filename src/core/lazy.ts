// A result field built on first read (a run's events, a strategy's trades and equity curve): most
// runs' results (optimize trials, benches, callers that read a summary) never read them, so they
// stay in the run's own compact form until then. The first read, or a write, turns the accessor
// into a plain data property: JSON.stringify, structured clone (workers), spreads and
// Object.keys/entries see an ordinary enumerable property either way.
//
// The accessors are one getter and setter per key name, shared by every object: the pending builds
// wait in the object itself (under a non-enumerable symbol, which JSON, structured clone, spreads and
// Object.keys leave out). V8 keeps a property's accessor pair in its old generation, and a pair of a
// run's own closures held the whole run (its result, trades, broker) through every minor GC until
// the next mark-compact: each run's result was copied, promoted and left to a mark-compact.

/** An object's builds still pending, by key. */
const BUILDS = Symbol("resin.lazy");

type Pending = Record<PropertyKey, (() => unknown) | undefined>;

interface Accessors {
  get(this: object): unknown;
  set(this: object, value: unknown): void;
}

const accessorsByKey = new Map<PropertyKey, Accessors>();

function settle(obj: object, key: PropertyKey, value: unknown): unknown {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

function accessorsOf(key: PropertyKey): Accessors {
  let a = accessorsByKey.get(key);
  if (a === undefined) {
    a = {
      get(this: object): unknown {
        const pending = (this as { [BUILDS]?: Pending })[BUILDS];
        const value = pending?.[key]?.();
        if (pending) pending[key] = undefined;
        return settle(this, key, value);
      },
      set(this: object, value: unknown): void {
        const pending = (this as { [BUILDS]?: Pending })[BUILDS];
        if (pending) pending[key] = undefined;
        settle(this, key, value);
      },
    };
    accessorsByKey.set(key, a);
  }
  return a;
}

/** Makes `obj[key]` an accessor that builds its value with `build` on first read, then a data property. */
export function lazyProperty<T extends object, K extends keyof T>(obj: T, key: K, build: () => T[K]): void {
  let pending = (obj as { [BUILDS]?: Pending })[BUILDS];
  if (pending === undefined) {
    pending = {};
    Object.defineProperty(obj, BUILDS, { value: pending, enumerable: false, writable: false, configurable: true });
  }
  pending[key] = build;
  const { get, set } = accessorsOf(key);
  Object.defineProperty(obj, key, { enumerable: true, configurable: true, get, set });
}
