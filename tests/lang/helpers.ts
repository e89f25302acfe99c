// Shared helpers for the language tests: span-free structural comparison and round-tripping.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse, unparse, type ParseResult } from "../../src/lang/index.js";

/** The AST as JSON without spans, for structural comparison. */
export function shape(value: unknown): string {
  return JSON.stringify(value, (k, v) => (k === "span" ? undefined : v));
}

/** Parses, prints and parses again; returns both results and the printed text. */
export function roundTrip(source: string): { first: ParseResult; second: ParseResult; printed: string } {
  const first = parse(source);
  const printed = unparse(first.ast);
  return { first, second: parse(printed), printed };
}

/** Every *.pine under `dir`, recursively. */
export function pineFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...pineFiles(path));
    else if (name.endsWith(".pine")) out.push(path);
  }
  return out;
}

export function read(path: string): string {
  return readFileSync(path, "utf8");
}

/** Diagnostics rendered as `line:col code message` for readable failures. */
export function messages(r: ParseResult): string[] {
  return r.diagnostics.map((d) => `${d.severity} ${d.line}:${d.column} ${d.code} ${d.message}`);
}

interface Spanned {
  span: { start: number; end: number; line: number; column: number; endLine: number; endColumn: number };
}

/** Problems with the spans of a parsed tree: offsets must agree with line/column, every child must
 * lie inside its parent, and nothing may reach outside the source. Empty when all is well. */
export function spanProblems(source: string, root: unknown): string[] {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const position = (offset: number): [number, number] => {
    let lo = 0,
      hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - lineStarts[lo]! + 1];
  };
  const problems: string[] = [];
  const visit = (node: unknown, parent: Spanned["span"] | null, path: string): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((n, i) => {
        visit(n, parent, `${path}[${i}]`);
      });
      return;
    }
    const s = (node as Partial<Spanned>).span;
    let here = parent;
    if (s && (node as { kind?: string }).kind !== undefined) {
      const [line, column] = position(s.start);
      const [endLine, endColumn] = position(s.end);
      if (s.start > s.end || s.end > source.length) problems.push(`${path}: offsets ${s.start}..${s.end}`);
      if (line !== s.line || column !== s.column)
        problems.push(`${path}: start ${s.line}:${s.column} but offset says ${line}:${column}`);
      if (endLine !== s.endLine || endColumn !== s.endColumn)
        problems.push(`${path}: end ${s.endLine}:${s.endColumn} but offset says ${endLine}:${endColumn}`);
      if (parent && (s.start < parent.start || s.end > parent.end))
        problems.push(`${path}: ${s.start}..${s.end} outside parent ${parent.start}..${parent.end}`);
      here = s;
    }
    for (const [k, v] of Object.entries(node)) if (k !== "span" && k !== "doc") visit(v, here, `${path}.${k}`);
  };
  visit(root, null, "program");
  return problems.slice(0, 10);
}
