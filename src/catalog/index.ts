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

/** The catalogue entry of a function called as `name` (`array.new` finds `array.new<type>`). */
export function catalogFunction(name: string): { key: string; fn: CatalogFunction } | undefined {
  const fn = CATALOG.functions[name];
  if (fn) return { key: name, fn };
  const g = GENERIC[name];
  return g ? { key: g, fn: CATALOG.functions[g]! } : undefined;
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
