// Hover: builtins with their signatures, parameter and return types (the catalogue); user symbols with
// their inferred type and qualifier (const/input/simple/series) and doc annotations.

import type { Hover, Position } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import { builtinMarkdown } from "./builtin-docs.js";
import { symbolMarkdown } from "./describe.js";

export function hover(a: Analysis, pos: Position): Hover | null {
  const o = a.index.at(a.lines.offsetAt(pos));
  if (!o) return null;
  const value = "symbol" in o ? symbolMarkdown(a.index, o.symbol) : builtinMarkdown(o.builtin, o.role);
  if (!value) return null;
  return { contents: { kind: "markdown", value }, range: a.lines.range(o.span) };
}
