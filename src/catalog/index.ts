// The builtin catalogue: what the checker knows about every builtin name, generated from builtins.json.
import { CATALOG } from "./data.generated.js";
import type { CatalogFunction } from "./types.js";

export type { CatalogData, CatalogFunction } from "./types.js";
export { CATALOG };

/** Catalogue names of generic constructors (`array.new<type>`) keyed by their call name (`array.new`). */
const GENERIC: Record<string, string> = {};
for (const name of Object.keys(CATALOG.functions)) {
  const lt = name.indexOf("<");
  if (lt > 0) GENERIC[name.slice(0, lt)] = name;
}

/** Found entries, one object per catalogue name (the checker asks at every call site; read-only). */
const FOUND = new Map<string, Readonly<{ key: string; fn: CatalogFunction }>>();

/** The catalogue entry of a function called as `name` (`array.new` finds `array.new<type>`). */
export function catalogFunction(name: string): Readonly<{ key: string; fn: CatalogFunction }> | undefined {
  const hit = FOUND.get(name);
  if (hit) return hit;
  const fn = CATALOG.functions[name];
  const g = fn ? undefined : GENERIC[name];
  const found = fn ? { key: name, fn } : g ? { key: g, fn: CATALOG.functions[g]! } : undefined;
  // only names in the catalogue are kept, so the map stays bounded whatever scripts call
  if (found) FOUND.set(name, found);
  return found;
}

export function catalogVariable(name: string): string | undefined {
  return CATALOG.variables[name];
}

export function catalogConstant(name: string): string | undefined {
  return CATALOG.constants[name];
}

/** True when `ns` is a builtin namespace prefix (`ta`, `strategy.risk`, `chart.point`). */
const NAMESPACES = new Set<string>();
for (const table of [CATALOG.functions, CATALOG.variables, CATALOG.constants]) {
  for (const name of Object.keys(table)) {
    const parts = name.split("<")[0]!.split(".");
    for (let i = 1; i < parts.length; i++) NAMESPACES.add(parts.slice(0, i).join("."));
  }
}
export function isNamespace(ns: string): boolean {
  return NAMESPACES.has(ns);
}
