// The per-run drawing store: alive objects of each kind in creation order, the id counter and the
// max_*_count limits. Plain data, so a realtime tick can be rolled back with snapshot/restore.
import type { ExecContext } from "../types.js";
import { type Linefill, Table, type AnyDrawing, type DrawingKind, type Line } from "./objects.js";
import { drawingsResult } from "./result.js";
import { objectArray, removeItem } from "../../core/shapes.js";

export interface DrawingLimits {
  max_lines_count?: number;
  max_labels_count?: number;
  max_boxes_count?: number;
  max_polylines_count?: number;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
export const MAX_POLYLINES = 100;

export interface DrawingStore {
  nextId: number;
  limits: Record<DrawingKind, number>;
  alive: Record<DrawingKind, AnyDrawing[]>;
  /** Bumped on every change; lets hosts tell whether drawings moved since they last looked. */
  version: number;
  /** The result's `toResult()` hook (src/runtime collects ctx.ext.drawings through it). */
  toResult(): Record<string, unknown>[];
}

function clampLimit(v: unknown, max: number): number {
  if (typeof v !== "number" || v !== v) return Math.min(DEFAULT_LIMIT, max);
  return Math.max(1, Math.min(max, Math.trunc(v)));
}

export function createDrawingStore(limits: DrawingLimits = {}): DrawingStore {
  const store: DrawingStore = {
    nextId: 1,
    limits: {
      line: clampLimit(limits.max_lines_count, MAX_LIMIT),
      label: clampLimit(limits.max_labels_count, MAX_LIMIT),
      box: clampLimit(limits.max_boxes_count, MAX_LIMIT),
      polyline: clampLimit(limits.max_polylines_count, MAX_POLYLINES),
      // tables and linefills have no declaration limit
      table: Infinity,
      linefill: Infinity,
    },
    // (arrays in the object elements kind from the start: core/shapes.ts)
    alive: {
      line: objectArray(),
      label: objectArray(),
      box: objectArray(),
      table: objectArray(),
      polyline: objectArray(),
      linefill: objectArray(),
    },
    version: 0,
    toResult: () => drawingsResult(store),
  };
  return store;
}

/** The run's store; created from the declaration's max_*_count when the Runtime has not attached one. */
export function storeOf(ctx: ExecContext): DrawingStore {
  let s = ctx.ext.drawings as DrawingStore | undefined;
  if (s === undefined || s === null || typeof s !== "object" || !("alive" in s)) {
    const decl = (ctx.ext.declaration ?? {}) as DrawingLimits;
    s = createDrawingStore(decl);
    ctx.ext.drawings = s;
  }
  return s;
}

export function allocId(store: DrawingStore): number {
  return store.nextId++;
}

/** Registers a new object; past the kind's limit the oldest objects are deleted. */
export function addDrawing(store: DrawingStore, obj: AnyDrawing): void {
  const list = store.alive[obj.kind];
  list.push(obj);
  store.version++;
  const limit = store.limits[obj.kind];
  while (list.length > limit) removeDrawing(store, list[0]!);
}

/** Deletes an object (no-op when already deleted); a line takes its linefills with it. */
export function removeDrawing(store: DrawingStore, obj: AnyDrawing): void {
  if (obj.deleted) return;
  obj.deleted = true;
  const list = store.alive[obj.kind];
  // the oldest (the limit's deletions, in order): shift, which V8 does without moving the others;
  // else in place (no array returned per removal as splice does)
  if (list[0] === obj) list.shift();
  else removeItem(list, obj);
  store.version++;
  if (obj.kind === "line") {
    const fills = store.alive.linefill as Linefill[];
    for (let k = fills.length - 1; k >= 0; k--) {
      const f = fills[k]!;
      if (f.line1 === obj || f.line2 === obj) removeDrawing(store, f);
    }
  }
}

/** The linefill already joining these two lines (in either order), if any. */
export function findLinefill(store: DrawingStore, a: Line, b: Line): Linefill | undefined {
  for (const f of store.alive.linefill as Linefill[]) {
    if ((f.line1 === a && f.line2 === b) || (f.line1 === b && f.line2 === a)) return f;
  }
  return undefined;
}

// ---------------------------------------------------------------- snapshot / restore

interface SavedObject {
  obj: AnyDrawing;
  fields: Record<string, unknown>;
}

export interface DrawingSnapshot {
  nextId: number;
  version: number;
  alive: Record<DrawingKind, AnyDrawing[]>;
  saved: SavedObject[];
}

/** A shallow copy of an object's fields; a table's cells and merges are copied one level deeper. */
function copyFields(obj: object): Record<string, unknown> {
  const f: Record<string, unknown> = { ...obj };
  if (Array.isArray(f.cells)) f.cells = (f.cells as (object | null)[]).map((c) => (c === null ? null : { ...c }));
  if (Array.isArray(f.merges)) f.merges = (f.merges as object[]).map((m) => ({ ...m }));
  return f;
}

/**
 * The state of every alive object (the only ones a tick can change: setters on deleted objects do
 * nothing). Objects deleted during the tick are among them, so a restore revives them.
 */
export function snapshotDrawings(store: DrawingStore): DrawingSnapshot {
  const saved: SavedObject[] = [];
  const alive = {} as Record<DrawingKind, AnyDrawing[]>;
  for (const kind of Object.keys(store.alive) as DrawingKind[]) {
    alive[kind] = store.alive[kind].slice();
    for (const obj of store.alive[kind]) saved.push({ obj, fields: copyFields(obj) });
  }
  return { nextId: store.nextId, version: store.version, alive, saved };
}

/** Whether no drawing of any kind is alive in `store` (a snapshot would copy nothing but empty lists). */
export function noDrawingsAlive(store: DrawingStore): boolean {
  for (const kind in store.alive) if (store.alive[kind as DrawingKind].length !== 0) return false;
  return true;
}

/**
 * The snapshot snapshotDrawings takes of a store with no drawing alive, its next id `nextId` and
 * version `version`: a caller that found none alive (noDrawingsAlive) keeps the two numbers and makes
 * this only when something was created since.
 */
export function emptyDrawingSnapshot(store: DrawingStore, nextId: number, version: number): DrawingSnapshot {
  const alive = {} as Record<DrawingKind, AnyDrawing[]>;
  for (const kind of Object.keys(store.alive) as DrawingKind[]) alive[kind] = [];
  return { nextId, version, alive, saved: [] };
}

/** Puts the store and every object back as they were at the snapshot (the snapshot stays reusable). */
export function restoreDrawings(store: DrawingStore, snap: DrawingSnapshot): void {
  // objects created after the snapshot disappear
  for (const kind of Object.keys(store.alive) as DrawingKind[]) {
    const before = new Set(snap.alive[kind]);
    for (const obj of store.alive[kind]) if (!before.has(obj)) obj.deleted = true;
    store.alive[kind] = snap.alive[kind].slice();
  }
  for (const { obj, fields } of snap.saved) {
    Object.assign(obj, obj instanceof Table ? copyFields(fields) : fields);
  }
  store.nextId = snap.nextId;
  store.version = snap.version + 1;
}

/** A new alive object of the same kind with the source's properties (the copy is independent). */
export function copyDrawing<T extends AnyDrawing>(store: DrawingStore, src: T, make: (id: number) => T): T {
  const dst = make(allocId(store));
  const fields = copyFields(src);
  delete fields.id;
  delete fields.kind;
  delete fields.deleted;
  Object.assign(dst, fields);
  addDrawing(store, dst);
  return dst;
}
