// Signature help: inside a call, every overload of the function (builtin or user), the active one the
// first whose parameters can take the arguments written so far, and the active parameter (by position,
// or by name inside `name = ...`).

import type { Position, SignatureHelp, SignatureInformation } from "vscode-languageserver-types";
import type * as A from "../lang/ast.js";
import { printType } from "../lang/types.js";
import type { Analysis } from "./analysis.js";
import { builtinMarkdown, builtinSignatures } from "./builtin-docs.js";
import { enclosingCall } from "./call-context.js";
import { symbolDetail } from "./describe.js";

export function signatureHelp(a: Analysis, pos: Position): SignatureHelp | null {
  const call = enclosingCall(a.text, a.lines.offsetAt(pos));
  if (!call) return null;
  const sigs = signaturesOf(a, call.callee);
  if (!sigs.length) return null;
  const written = call.argIndex + 1;
  let active = sigs.findIndex((s) => (s.parameters?.length ?? 0) >= written);
  if (active < 0) active = 0;
  const params = (sigs[active]!.parameters ?? []).map((p) => String(p.label));
  const activeParameter = call.argName !== undefined ? params.indexOf(call.argName) : call.argIndex;
  return { signatures: sigs, activeSignature: active, activeParameter: Math.max(0, activeParameter) };
}

function signaturesOf(a: Analysis, callee: string): SignatureInformation[] {
  const last = callee.split(".").pop()!;
  const user = a.index.functions.get(callee) ?? a.index.methods.get(last);
  if (user?.length)
    return user.map((s) => {
      const f = s.node as A.FuncDecl;
      return {
        label: symbolDetail(a.index, s),
        parameters: f.params.map((p) => ({
          label: p.name.name,
          documentation: p.type ? `${p.qualifier ? `${p.qualifier} ` : ""}${printType(p.type)}` : undefined,
        })),
      };
    });
  let sigs = builtinSignatures(callee);
  // a method call on a value (`arr.push(`): the builtin of the value's namespace, without the receiver
  if (!sigs.length && callee.includes(".")) {
    for (const ns of ["array", "map", "matrix", "str", "line", "label", "box", "table"]) {
      const found = builtinSignatures(`${ns}.${last}`);
      if (found.length) {
        sigs = found.map((s) => ({ ...s, params: s.params.slice(1) }));
        break;
      }
    }
  }
  const doc = builtinMarkdown(callee, "function");
  return sigs.map((s) => ({
    label: s.label,
    documentation: doc ? { kind: "markdown", value: doc } : undefined,
    parameters: s.params.map((p) => ({
      label: p.name,
      documentation: `${p.type ?? ""}${p.optional ? " (optional)" : ""}`,
    })),
  }));
}
