import type { Program } from "./ast.js";
export function unparse(_ast: Program): string {
  return "";
}
