// Small option parser for resinctl subcommands: `--name value`, `--name=value`, boolean flags.

import { usageError } from "./errors.js";

export interface Parsed {
  positional: string[];
  values: Record<string, string>;
  bools: Set<string>;
}

export function parseOpts(args: string[], valueFlags: readonly string[] = [], boolFlags: readonly string[] = []): Parsed {
  const out: Parsed = { positional: [], values: {}, bools: new Set() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith("--")) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (valueFlags.includes(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v === undefined) throw usageError(`--${name} needs a value`);
      out.values[name] = v;
    } else if (boolFlags.includes(name)) out.bools.add(name);
    else throw usageError(`unknown option '${a}'`);
  }
  return out;
}

export function intOpt(p: Parsed, name: string, fallback: number): number {
  const v = p.values[name];
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw usageError(`--${name} must be a non-negative integer (got '${v}')`);
  return Number(v);
}

export function requirePositional(p: Parsed, index: number, what: string): string {
  const v = p.positional[index];
  if (v === undefined) throw usageError(`missing ${what}`);
  return v;
}
