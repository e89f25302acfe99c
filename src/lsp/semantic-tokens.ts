// Semantic tokens: every resolved name (declarations and uses, user and builtin) with its kind, encoded
// as the protocol's relative five-number groups.

import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import type { Occurrence } from "./symbol-index.js";

export const TOKEN_TYPES = [
  "namespace",
  "type",
  "enum",
  "enumMember",
  "parameter",
  "variable",
  "property",
  "function",
  "method",
] as const;
export const TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"] as const;
export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

const T = Object.fromEntries(TOKEN_TYPES.map((t, i) => [t, i])) as Record<(typeof TOKEN_TYPES)[number], number>;

function classify(o: Occurrence): [number, number] {
  if ("symbol" in o) {
    const decl = o.declaration ? 1 : 0;
    switch (o.symbol.kind) {
      case "function":
        return [T.function, decl];
      case "method":
        return [T.method, decl];
      case "type":
        return [T.type, decl];
      case "enum":
        return [T.enum, decl];
      case "enumMember":
        return [T.enumMember, decl | 2];
      case "field":
        return [T.property, decl];
      case "parameter":
        return [T.parameter, decl | 2];
      case "library":
        return [T.namespace, decl];
      default:
        return [T.variable, decl];
    }
  }
  const lib = 4;
  switch (o.role) {
    case "function":
      return [T.function, lib];
    case "variable":
      return [T.variable, lib | 2];
    case "constant":
      return [T.enumMember, lib | 2];
    case "namespace":
      return [T.namespace, lib];
    case "type":
      return [T.type, lib];
    default:
      return [T.parameter, lib];
  }
}

export function semanticTokens(a: Analysis): SemanticTokens {
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  let lastEnd = -1;
  for (const o of a.index.occurrences) {
    if (o.span.start < lastEnd || o.span.endLine !== o.span.line) continue; // tokens never overlap or wrap
    const pos = a.lines.positionAt(o.span.start);
    const [type, mods] = classify(o);
    data.push(
      pos.line - prevLine,
      pos.line === prevLine ? pos.character - prevChar : pos.character,
      o.span.end - o.span.start,
      type,
      mods,
    );
    prevLine = pos.line;
    prevChar = pos.character;
    lastEnd = o.span.end;
  }
  return { data };
}
