// How a user symbol is shown: a one-line signature (`series float fast`, `f(x, y) → series float`,
// `type Bar`) and markdown with its doc annotations (`//@function`, `//@param`, ...).

import type * as A from "../lang/ast.js";
import { printType } from "../lang/types.js";
import { typeText as pTypeText } from "../check/types.js";
import type { PineSymbol, SymbolIndex } from "./symbol-index.js";

export function symbolDetail(idx: SymbolIndex, s: PineSymbol): string {
  switch (s.kind) {
    case "function":
    case "method": {
      const f = s.node as A.FuncDecl;
      const params = f.params.map(
        (p) => (p.type ? `${p.qualifier ? `${p.qualifier} ` : ""}${printType(p.type)} ` : "") + p.name.name,
      );
      const ret = s.inferred ? ` → ${pTypeText(s.inferred)}` : "";
      return `${s.kind === "method" ? "method " : ""}${s.name}(${params.join(", ")})${ret}`;
    }
    case "type":
      return `type ${s.name}`;
    case "enum":
      return `enum ${s.name}`;
    case "enumMember":
      return `${s.container?.name}.${s.name}`;
    case "library":
      return `import ${(s.node as A.Import).namespace}/${(s.node as A.Import).name}/${(s.node as A.Import).version} as ${s.name}`;
    case "field":
      return `${s.writtenType ?? ""} ${s.container?.name}.${s.name}`.trim();
    default: {
      const ty = s.inferred ? pTypeText(s.inferred) : (s.writtenType ?? idx.typeName(s));
      const node = s.node as Partial<A.VarDecl>;
      const mode = node.kind === "VarDecl" && node.mode !== "plain" ? `${node.mode} ` : "";
      return `${mode}${ty ? `${ty} ` : ""}${s.name}`;
    }
  }
}

export function symbolMarkdown(idx: SymbolIndex, s: PineSymbol): string {
  const lines = ["```pine", symbolDetail(idx, s), "```"];
  const kind =
    s.kind === "parameter"
      ? `parameter of \`${s.container?.name}\``
      : s.kind === "variable" && s.container
        ? `local variable of \`${s.container.name}\``
        : s.kind;
  lines.push("", `*${kind}*`);
  for (const d of s.doc ?? []) {
    if (d.tag === "param" || d.tag === "field") {
      if (s.kind === "function" || s.kind === "method" || s.kind === "type") lines.push("", `\`${d.name}\`: ${d.text}`);
      else lines.push("", d.text);
    } else if (d.tag === "returns") lines.push("", `**Returns** ${d.text}`);
    else lines.push("", d.text);
  }
  return lines.join("\n");
}
