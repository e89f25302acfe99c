// What an editor shows about a builtin: signatures of each documented overload, parameter types and
// return types, from the generated catalogue (src/catalog). builtins.json holds names and signatures
// only (no reference prose), so a `description` is shown when the catalogue gains one.

import { CATALOG, catalogConstant, catalogFunction, catalogVariable } from "../catalog/index.js";

export interface BuiltinSignature {
  label: string;
  params: { name: string; type?: string; optional: boolean }[];
  returns: string;
}

/** One signature per documented overload: `ta.ema(source, length) → series float`. */
export function builtinSignatures(name: string): BuiltinSignature[] {
  const found = catalogFunction(name);
  if (!found) return [];
  const { fn } = found;
  const returns = fn.returns.join(" | ") || "void";
  const call = found.key.replace(/<type>$/, "");
  return fn.lists.map((list) => {
    const params = list.map((p) => ({ name: p, type: fn.types[p], optional: fn.optional.includes(p) }));
    const label = `${call}(${params.map((p) => p.name).join(", ")}) → ${returns}`;
    return { label, params, returns };
  });
}

/** Markdown for a hover or a completion item's documentation. */
export function builtinMarkdown(name: string, role: string): string | undefined {
  if (role === "function") {
    const sigs = builtinSignatures(name);
    if (!sigs.length) return undefined;
    const fn = catalogFunction(name)!.fn;
    const lines = ["```pine", ...sigs.map((s) => s.label), "```"];
    const params = Object.entries(fn.types);
    if (params.length) {
      lines.push("", "**Parameters**", "");
      for (const [p, ty] of params) lines.push(`- \`${p}\` (${ty}${fn.optional.includes(p) ? ", optional" : ""})`);
    }
    lines.push("", `**Returns** ${fn.returns.join(" | ") || "void"}`);
    const description = fn.description;
    if (description) lines.push("", description);
    return lines.join("\n");
  }
  if (role === "variable" || role === "constant") {
    const ty = role === "variable" ? catalogVariable(name) : catalogConstant(name);
    if (ty === undefined) return undefined;
    return ["```pine", `${ty} ${name}`, "```", "", role === "variable" ? "Builtin variable" : "Builtin constant"].join(
      "\n",
    );
  }
  if (role === "parameter") {
    const m = /^(.*)\((\w+)\)$/.exec(name);
    const fn = m ? catalogFunction(m[1]!)?.fn : undefined;
    if (!m || !fn) return undefined;
    return ["```pine", `${fn.types[m[2]!] ?? ""} ${m[2]}`.trim(), "```", "", `Parameter of \`${m[1]}\``].join("\n");
  }
  if (role === "namespace") return `\`${name}\`: builtin namespace (${namespaceMembers(name).length} members)`;
  if (role === "type") return ["```pine", name, "```", "", "Builtin type"].join("\n");
  return undefined;
}

export type MemberKind = "function" | "variable" | "constant" | "namespace";

/** The direct members of a builtin namespace: `ta` → sma, ema, ...; `strategy` → entry, risk (a namespace), ... */
export function namespaceMembers(ns: string): { name: string; full: string; kind: MemberKind }[] {
  const cached = MEMBERS.get(ns);
  if (cached) return cached;
  const out = new Map<string, { name: string; full: string; kind: MemberKind }>();
  const prefix = `${ns}.`;
  const add = (full: string, kind: MemberKind) => {
    const clean = full.replace(/<type>$/, "");
    if (!clean.startsWith(prefix)) return;
    const rest = clean.slice(prefix.length);
    const dot = rest.indexOf(".");
    if (dot >= 0) {
      const sub = rest.slice(0, dot);
      if (!out.has(sub)) out.set(sub, { name: sub, full: prefix + sub, kind: "namespace" });
    } else if (!out.has(rest) || out.get(rest)!.kind === "namespace") out.set(rest, { name: rest, full: clean, kind });
  };
  for (const f of Object.keys(CATALOG.functions)) add(f, "function");
  for (const v of Object.keys(CATALOG.variables)) add(v, "variable");
  for (const c of Object.keys(CATALOG.constants)) add(c, "constant");
  const list = [...out.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  MEMBERS.set(ns, list);
  return list;
}
const MEMBERS = new Map<string, { name: string; full: string; kind: MemberKind }[]>();

/** Names without a namespace: plot, input, close, na, ... and the namespaces themselves (ta, math, ...). */
export function globalBuiltins(): { name: string; kind: MemberKind }[] {
  if (GLOBALS) return GLOBALS;
  const out = new Map<string, MemberKind>();
  const scan = (names: string[], kind: MemberKind) => {
    for (const full of names) {
      const clean = full.replace(/<type>$/, "");
      const dot = clean.indexOf(".");
      if (dot < 0) {
        if (!out.has(clean) || out.get(clean) === "namespace") out.set(clean, kind);
      } else if (!out.has(clean.slice(0, dot))) out.set(clean.slice(0, dot), "namespace");
    }
  };
  scan(Object.keys(CATALOG.functions), "function");
  scan(Object.keys(CATALOG.variables), "variable");
  scan(Object.keys(CATALOG.constants), "constant");
  GLOBALS = [...out].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : 1));
  return GLOBALS;
}
let GLOBALS: { name: string; kind: MemberKind }[] | undefined;
