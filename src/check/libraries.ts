// `import Namespace/Name/Version [as alias]`: the library's definitions are brought in under the
// alias by renaming its top-level names (`f` -> `alias.f`, `Type` -> `alias.Type`, constants, enums)
// in a copy of its AST; the checker then checks them like the script's own global definitions.
import type * as A from "../lang/ast.js";
import { parse } from "../lang/index.js";
import type { LibrarySource } from "../core/result.js";
import { CheckError } from "./errors.js";

export const MAX_LIBRARIES = 32;

export function resolveImport(imp: A.Import, libraries: LibrarySource[]): A.Stmt[] {
  const id = `${imp.namespace}/${imp.name}/${imp.version}`;
  const lib = libraries.find(
    (l) => l.namespace === imp.namespace && l.name === imp.name && Number(l.version) === imp.version,
  );
  if (!lib) throw new CheckError(`Cannot resolve import '${id}': no such library was provided`, imp.span);
  const parsed = parse(lib.source);
  const err = parsed.diagnostics.find((d) => d.severity === "error");
  if (err) throw new CheckError(`Library '${id}' does not parse: line ${err.line}: ${err.message}`, imp.span);
  const body = parsed.ast.body;
  const decl = body.find((s) => s.kind === "ExprStmt" && s.expr.kind === "Call" && s.expr.callee.kind === "Ident");
  const declName =
    decl && decl.kind === "ExprStmt" && decl.expr.kind === "Call" && decl.expr.callee.kind === "Ident"
      ? decl.expr.callee.name
      : "";
  if (declName !== "library")
    throw new CheckError(`Import '${id}' is not a library (it must declare library())`, imp.span);
  const alias = imp.alias?.name ?? imp.name;
  const rename = new Map<string, string>();
  for (const s of body) {
    if (
      (s.kind === "FuncDecl" && !s.isMethod) ||
      s.kind === "TypeDecl" ||
      s.kind === "EnumDecl" ||
      s.kind === "VarDecl"
    ) {
      rename.set(s.name.name, `${alias}.${s.name.name}`);
    }
  }
  const defs = body.filter(
    (s) =>
      s.kind === "FuncDecl" || s.kind === "TypeDecl" || s.kind === "EnumDecl" || (s.kind === "VarDecl" && s.exported),
  );
  return defs.map((s) => renamed(s, rename) as A.Stmt);
}

/** A deep copy of `node` with library-level names prefixed by the alias. */
function renamed(node: unknown, rename: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((x) => renamed(x, rename));
  if (!node || typeof node !== "object") return node;
  const n = node as Record<string, unknown> & { kind?: string };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(n)) out[k] = k === "span" ? v : renamed(v, rename);
  switch (n.kind) {
    case "FuncDecl":
      if (!(n as unknown as A.FuncDecl).isMethod) out.name = ident((n as unknown as A.FuncDecl).name, rename);
      out.exported = false;
      break;
    case "TypeDecl":
    case "EnumDecl":
      out.name = ident((n as unknown as A.TypeDecl).name, rename);
      out.exported = false;
      break;
    case "VarDecl":
      out.name = ident((n as unknown as A.VarDecl).name, rename);
      out.exported = false;
      break;
    case "TypeRef": {
      const to = rename.get(n.name as string);
      if (to) out.name = to;
      break;
    }
    case "Ident": {
      const to = rename.get(n.name as string);
      if (to) out.name = to;
      break;
    }
  }
  return out;
}

function ident(id: A.Ident, rename: Map<string, string>): A.Ident {
  return { ...id, name: rename.get(id.name) ?? id.name };
}
