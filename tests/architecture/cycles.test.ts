// Import cycles inside src/. A cycle of value imports makes module load order matter (a binding read
// before its module ran is undefined) and hides which module is the lower one; the only ones allowed are
// the mutual recursions of a recursive-descent design, each listed below with its reason. Type-only
// imports are erased from the emitted JavaScript, so a type-only back-reference (a helper module taking
// its owner class as a parameter type) cannot break loading; those cycles are listed too, so a new one
// is a decision someone wrote down rather than an accident.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/** Value-import cycles allowed, keyed by their sorted member list: recursive descent over one grammar. */
const RECURSIVE_PAIRS: Record<string, string> = {
  "lang/control.ts lang/declarations.ts lang/expressions.ts lang/statements.ts":
    "the parser's recursive descent: statements contain expressions, expressions contain blocks (if/switch/for as expressions)",
  "interpret/compiler.ts interpret/security.ts":
    "request.security runs the whole program again in the requested context: compiling a call site compiles a program",
};

/** Cycles that exist only through `import type`, keyed the same way, each with its reason. */
const TYPE_ONLY_CYCLES: Record<string, string> = {
  "strategy/broker.ts strategy/fills.ts strategy/risk.ts strategy/snapshot.ts strategy/stats.ts strategy/walk.ts":
    "the broker's helper modules take the Broker they work on as a parameter type",
  "check/checker.ts check/statements.ts": "statement checking takes the Checker as a parameter type",
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Relative imports of a source text, each marked type-only or not (static, re-export and dynamic). */
function importsOf(source: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const statement =
    /\b(import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*\{[^}]*\})?)\s+from\s+["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of source.matchAll(statement)) {
    const names = m[3].startsWith("{")
      ? m[3]
          .slice(1, -1)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    const everyNameTyped = names.length > 0 && names.every((n) => n.startsWith("type "));
    out.push({ spec: m[4], typeOnly: m[2] !== undefined || everyNameTyped });
  }
  for (const m of source.matchAll(/\bimport\s+["'](\.{1,2}\/[^"']+)["']/g)) out.push({ spec: m[1], typeOnly: false });
  for (const m of source.matchAll(/\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g))
    out.push({ spec: m[1], typeOnly: false });
  return out;
}

/** Graph of src/ modules (paths relative to src, .ts): edges of value imports only, or of every import. */
function graph(includeTypes: boolean): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    const edges: string[] = [];
    for (const { spec, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
      if (typeOnly && !includeTypes) continue;
      const target = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, ".ts");
      edges.push(target);
    }
    g.set(from, edges);
  }
  return g;
}

/** Strongly connected components with more than one module (Tarjan), each as its sorted member list. */
function cycles(g: Map<string, string[]>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        members.push(w);
      } while (w !== v);
      if (members.length > 1) found.push(members.sort().join(" "));
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found.sort();
}

describe("import cycles in src/", () => {
  it("reads type-only imports as type-only", () => {
    expect(importsOf('import type { A } from "./a.js";')).toEqual([{ spec: "./a.js", typeOnly: true }]);
    expect(importsOf('import { type A, type B } from "./a.js";')).toEqual([{ spec: "./a.js", typeOnly: true }]);
    expect(importsOf('import { type A, b } from "./a.js";')).toEqual([{ spec: "./a.js", typeOnly: false }]);
    expect(importsOf('export { x } from "../b.js";')).toEqual([{ spec: "../b.js", typeOnly: false }]);
    expect(importsOf('const m = await import("./c.js");')).toEqual([{ spec: "./c.js", typeOnly: false }]);
  });

  it("has no value-import cycle but the listed recursive-descent pairs", () => {
    expect(cycles(graph(false)).filter((c) => !(c in RECURSIVE_PAIRS))).toEqual([]);
  });

  it("has no type-only cycle but the listed ones", () => {
    const allowed = (c: string) => c in RECURSIVE_PAIRS || c in TYPE_ONLY_CYCLES;
    expect(cycles(graph(true)).filter((c) => !allowed(c))).toEqual([]);
  });

  it("lists no allowed cycle that is gone", () => {
    const all = new Set(cycles(graph(true)));
    expect(Object.keys({ ...RECURSIVE_PAIRS, ...TYPE_ONLY_CYCLES }).filter((c) => !all.has(c))).toEqual([]);
  });
});
