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
