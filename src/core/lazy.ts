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

/** A getter and setter for one key name, shared by every object that has the key (see above). */
export interface SharedAccessors {
  get(this: object): unknown;
  set(this: object, value: unknown): void;
}

/**
 * The shared accessor pair of each key name: made by `make` the first time a name is asked for and
 * kept for every later object, at most `max` names (past that a pair is made per call; it should
 * capture nothing but its key, so that it holds nothing of a run either way).
 */
export function sharedAccessors<K extends PropertyKey>(
  make: (key: K) => SharedAccessors,
  max = Number.POSITIVE_INFINITY,
): (key: K) => SharedAccessors {
  const byKey = new Map<K, SharedAccessors>();
  return (key) => {
    let a = byKey.get(key);
    if (a === undefined) {
      a = make(key);
      if (byKey.size < max) byKey.set(key, a);
    }
    return a;
  };
}

/** Makes `obj[key]` the accessor pair `a` (enumerable, so JSON and spreads see the key). */
export function defineAccessors(obj: object, key: PropertyKey, a: SharedAccessors): void {
  Object.defineProperty(obj, key, { enumerable: true, configurable: true, get: a.get, set: a.set });
}

/**
 * Gives `obj` the property `key` holding `value`, non-enumerable (left out by JSON, structured clone,
 * spreads and Object.keys): where a lazy field's pending work waits on the object itself.
 */
export function hiddenProperty(obj: object, key: symbol, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: false, configurable: true });
}

/** Makes `obj[key]` a plain data property holding `value` (what a settled accessor becomes). */
export function dataProperty(obj: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

const buildOnRead = sharedAccessors<PropertyKey>((key) => ({
  get(this: object): unknown {
    const pending = (this as { [BUILDS]?: Pending })[BUILDS];
    const value = pending?.[key]?.();
    if (pending) pending[key] = undefined;
    dataProperty(this, key, value);
    return value;
  },
  set(this: object, value: unknown): void {
    const pending = (this as { [BUILDS]?: Pending })[BUILDS];
    if (pending) pending[key] = undefined;
    dataProperty(this, key, value);
  },
}));

/** Makes `obj[key]` an accessor that builds its value with `build` on first read, then a data property. */
export function lazyProperty<T extends object, K extends keyof T>(obj: T, key: K, build: () => T[K]): void {
  let pending = (obj as { [BUILDS]?: Pending })[BUILDS];
  if (pending === undefined) {
    pending = {};
    hiddenProperty(obj, BUILDS, pending);
  }
  pending[key] = build;
  defineAccessors(obj, key, buildOnRead(key));
}
