// Completion: after `ns.` the members of a builtin namespace, of an enum, of a user type (new, copy)
// or the fields and methods of a value; inside a call's parentheses also its named arguments; after
// `//@` the annotations; elsewhere locals, user functions and types, builtins and keywords. Items carry
// their signature (`detail`) and reference text (`documentation`).

import type { CompletionItem, CompletionItemKind, Position } from "vscode-languageserver-types";
import { CATALOG, catalogFunction } from "../catalog/index.js";
import type { Analysis } from "./analysis.js";
import {
  builtinMarkdown,
  builtinSignatures,
  globalBuiltins,
  namespaceMembers,
  type MemberKind,
} from "./builtin-docs.js";
import { enclosingCall } from "./call-context.js";
import { symbolDetail, symbolMarkdown } from "./describe.js";
import { genericHead, type PineSymbol } from "./symbol-index.js";

// LSP CompletionItemKind values
const K: Record<string, CompletionItemKind> = {
  method: 2,
  function: 3,
  field: 5,
  variable: 6,
  class: 7,
  module: 9,
  property: 10,
  keyword: 14,
  snippet: 15,
  enum: 13,
  constant: 21,
  enumMember: 20,
  typeParameter: 25,
};

const ANNOTATIONS = [
  "@version=6",
  "@description",
  "@function",
  "@param",
  "@returns",
  "@type",
  "@field",
  "@enum",
  "@variable",
  "@strategy_alert_message",
];
const KEYWORDS = [
  "if",
  "else",
  "for",
  "to",
  "by",
  "in",
  "while",
  "switch",
  "var",
  "varip",
  "const",
  "simple",
  "series",
  "import",
  "export",
  "method",
  "type",
  "enum",
  "and",
  "or",
  "not",
  "true",
  "false",
  "na",
  "break",
  "continue",
];
const METHOD_NS: Record<string, string> = {
  array: "array",
  matrix: "matrix",
  map: "map",
  string: "str",
  line: "line",
  label: "label",
  box: "box",
  table: "table",
  linefill: "linefill",
  polyline: "polyline",
  "chart.point": "chart.point",
};

export function complete(a: Analysis, pos: Position): CompletionItem[] {
  const offset = a.lines.offsetAt(pos);
  const lineText = a.lines.lineText(pos.line).slice(0, pos.character);
  const comment = commentStart(lineText);
  if (comment >= 0) {
    const after = lineText.slice(comment + 2);
    if (/^\s*@\w*$/.test(after))
      return ANNOTATIONS.map((x) => ({ label: x, kind: K.keyword, insertText: x.slice(1), filterText: x }));
    return [];
  }
  const dotted = /([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\.(\w*)$/.exec(lineText);
  if (dotted) return memberItems(a, dotted[1]!, offset);
  const items = scopeItems(a, offset);
  const call = enclosingCall(a.text, offset);
  if (call && /(?:^|[(,]\s*)\w*$/.test(a.text.slice(call.open + 1, offset).replace(/\s+/g, " ")))
    items.unshift(...namedArgItems(a, call.callee));
  return items;
}

/** Index of `//` starting a comment on this line (outside strings), or -1. */
function commentStart(line: string): number {
  let quote = "";
  for (let i = 0; i < line.length - 1; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "/" && line[i + 1] === "/") return i;
  }
  return -1;
}

function memberItems(a: Analysis, prefix: string, offset: number): CompletionItem[] {
  const idx = a.index;
  const visible = idx.visibleAt(offset);
  const root = prefix.split(".")[0]!;
  const variable = visible.find((s) => s.name === root && (s.kind === "variable" || s.kind === "parameter"));
  if (!variable) {
    const en = idx.enums.get(prefix);
    if (en)
      return [...(idx.members.get(en)?.values() ?? [])].map((m) => ({
        label: m.name,
        kind: K.enumMember,
        detail: `${en.name}.${m.name}`,
      }));
    const ty = idx.types.get(prefix);
    if (ty)
      return [
        { label: "new", kind: K.method, detail: `${ty.name}.new(${fieldNames(a, ty)})` },
        { label: "copy", kind: K.method, detail: `${ty.name}.copy(${ty.name} object)` },
      ];
    if (idx.libraries.has(prefix)) return [];
    const members = namespaceMembers(prefix);
    if (members.length) return members.map((m) => builtinItem(m.name, m.full, m.kind));
  }
  // a value: fields of its type, user methods, builtin methods of its type
  const chain = prefix.split(".");
  let tn = variable ? idx.typeName(variable) : undefined;
  for (const field of chain.slice(1)) {
    const owner = tn ? idx.types.get(tn) : undefined;
    const f = owner ? idx.members.get(owner)?.get(field) : undefined;
    tn = f ? idx.typeName(f) : undefined;
  }
  const out: CompletionItem[] = [];
  const owner = tn ? idx.types.get(tn) : undefined;
  if (owner)
    for (const f of idx.members.get(owner)?.values() ?? [])
      out.push({
        label: f.name,
        kind: K.field,
        detail: symbolDetail(idx, f),
        documentation: md(symbolMarkdown(idx, f)),
      });
  for (const [name, list] of idx.methods) {
    const m = list[0]!;
    out.push({ label: name, kind: K.method, detail: symbolDetail(idx, m), documentation: md(symbolMarkdown(idx, m)) });
  }
  const ns = tn ? METHOD_NS[genericHead(tn)] : undefined;
  if (ns)
    for (const m of namespaceMembers(ns))
      if (m.kind === "function" && m.name !== "new") out.push(builtinItem(m.name, m.full, "function", K.method));
  return out;
}

function fieldNames(a: Analysis, ty: PineSymbol): string {
  return [...(a.index.members.get(ty)?.keys() ?? [])].join(", ");
}

function scopeItems(a: Analysis, offset: number): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const s of a.index.visibleAt(offset)) {
    items.push({
      label: s.name,
      kind: symbolKind(s),
      detail: symbolDetail(a.index, s),
      documentation: md(symbolMarkdown(a.index, s)),
      sortText: `0${s.name}`,
    });
  }
  for (const b of globalBuiltins()) items.push({ ...builtinItem(b.name, b.name, b.kind), sortText: `1${b.name}` });
  for (const kw of KEYWORDS) items.push({ label: kw, kind: K.keyword, sortText: `2${kw}` });
  for (const ty of CATALOG.types)
    if (/^\w+$/.test(ty)) items.push({ label: ty, kind: K.typeParameter, sortText: `2${ty}` });
  return dedupe(items);
}

function namedArgItems(a: Analysis, callee: string): CompletionItem[] {
  const user = a.index.functions.get(callee)?.[0] ?? a.index.methods.get(callee.split(".").pop()!)?.[0];
  if (user) {
    const decl = user.node as import("../lang/ast.js").FuncDecl;
    return decl.params.map((p) => ({
      label: `${p.name.name}=`,
      kind: K.property,
      insertText: `${p.name.name} = `,
      detail: `parameter of ${user.name}`,
      sortText: `!${p.name.name}`,
    }));
  }
  const fn = catalogFunction(callee)?.fn;
  if (!fn) return [];
  return fn.params.map((p) => ({
    label: `${p}=`,
    kind: K.property,
    insertText: `${p} = `,
    detail: fn.types[p] ?? "",
    documentation: md(builtinMarkdown(`${callee}(${p})`, "parameter")),
    sortText: `!${p}`,
  }));
}

function builtinItem(label: string, full: string, kind: MemberKind, itemKind?: CompletionItemKind): CompletionItem {
  const sig = kind === "function" ? builtinSignatures(full)[0]?.label : undefined;
  const detail =
    kind === "function"
      ? sig
      : kind === "variable"
        ? CATALOG.variables[full]
        : kind === "constant"
          ? CATALOG.constants[full]
          : "namespace";
  return {
    label,
    kind:
      itemKind ??
      (kind === "function"
        ? K.function
        : kind === "variable"
          ? K.variable
          : kind === "constant"
            ? K.constant
            : K.module),
    detail,
    documentation: md(builtinMarkdown(full, kind)),
  };
}

function symbolKind(s: PineSymbol): CompletionItemKind {
  switch (s.kind) {
    case "function":
      return K.function;
    case "method":
      return K.method;
    case "type":
      return K.class;
    case "enum":
      return K.enum;
    case "library":
      return K.module;
    default:
      return K.variable;
  }
}

function md(value: string | undefined): CompletionItem["documentation"] {
  return value ? { kind: "markdown", value } : undefined;
}

function dedupe(items: CompletionItem[]): CompletionItem[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.label) ? false : (seen.add(i.label), true)));
}
