// Name resolution for editor tools: every declaration of a script (variables, parameters, functions,
// methods, types and their fields, enums and their members, library aliases) and every place a name is
// used, resolved by Pine's lexical scopes (blocks nest, a function body sees the globals, not its
// caller's locals). Builtin names are recorded too, with their catalogue name, for hover and semantic
// tokens. Field and method uses resolve through the types the checker inferred (CheckResult's
// `declaredTypes`). The checker itself inlines functions per call site and stops at nothing an editor
// needs, so this walk over the same AST answers "what is this name" without a second parser.

import type * as A from "../lang/ast.js";
import { catalogConstant, catalogFunction, catalogVariable, isNamespace } from "../catalog/index.js";
import type { PType } from "../check/types.js";

export type SymbolKind =
  | "variable"
  | "parameter"
  | "function"
  | "method"
  | "type"
  | "field"
  | "enum"
  | "enumMember"
  | "library";

export interface PineSymbol {
  name: string;
  kind: SymbolKind;
  /** The identifier that declares it. */
  nameSpan: A.Span;
  /** The whole declaration (statement, parameter, field). */
  declSpan: A.Span;
  /** Source offsets where the name is visible (for completion). */
  visibleFrom: number;
  visibleTo: number;
  /** The function of a parameter or local, the type of a field, the enum of a member. */
  container?: PineSymbol;
  /** The type written in the declaration (`float`, `array<Bar>`), if any. */
  writtenType?: string;
  /** The type the checker inferred for it, if it was checked. */
  inferred?: PType;
  /** `var`, `varip`, `const`... and the declaration node itself, for hover and signatures. */
  node: A.Stmt | A.Param | A.FieldDecl | A.EnumMember | A.Ident;
  doc?: A.DocAnnotation[];
  /** Every occurrence of the name, the declaration's first. */
  refs: A.Span[];
}

export type BuiltinRole = "function" | "variable" | "constant" | "namespace" | "type" | "parameter";

export type Occurrence =
  | { span: A.Span; symbol: PineSymbol; declaration: boolean }
  | { span: A.Span; builtin: string; role: BuiltinRole };

const BUILTIN_TYPES = new Set([
  "int",
  "float",
  "bool",
  "string",
  "color",
  "line",
  "label",
  "box",
  "table",
  "linefill",
  "polyline",
  "array",
  "matrix",
  "map",
  "chart.point",
  "footprint",
  "volume_row",
]);
/** Types whose builtin functions are also their methods (`arr.push` is `array.push`). */
const METHOD_NS: Record<string, string> = {
  array: "array",
  matrix: "matrix",
  map: "map",
  string: "str",
  color: "color",
  line: "line",
  label: "label",
  box: "box",
  table: "table",
  linefill: "linefill",
  polyline: "polyline",
  "chart.point": "chart.point",
};

class Scope {
  readonly vars = new Map<string, PineSymbol>();
  constructor(
    readonly parent: Scope | null,
    readonly end: number,
  ) {}
  lookup(name: string): PineSymbol | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v) return v;
    }
    return undefined;
  }
}

export class SymbolIndex {
  readonly symbols: PineSymbol[] = [];
  readonly occurrences: Occurrence[] = [];
  readonly functions = new Map<string, PineSymbol[]>();
  readonly methods = new Map<string, PineSymbol[]>();
  readonly types = new Map<string, PineSymbol>();
  readonly enums = new Map<string, PineSymbol>();
  readonly libraries = new Map<string, PineSymbol>();
  /** Fields of each type and members of each enum, by name. */
  readonly members = new Map<PineSymbol, Map<string, PineSymbol>>();

  constructor(
    readonly ast: A.Program,
    private readonly typeAt: (offset: number) => PType | undefined = () => undefined,
    /** The source, to place names the AST keeps only as text (an import's library name). */
    private readonly text = "",
  ) {
    const global = new Scope(null, ast.span.end);
    for (const s of ast.body) this.hoist(s);
    for (const s of ast.body) this.stmt(s, global, undefined);
    this.occurrences.sort((a, b) => a.span.start - b.span.start);
  }

  /** The occurrence whose span holds `offset` (its end included, where a cursor after a name sits). */
  at(offset: number): Occurrence | undefined {
    let best: Occurrence | undefined;
    for (const o of this.occurrences) {
      if (o.span.start > offset) break;
      if (offset <= o.span.end && (!best || o.span.end - o.span.start <= best.span.end - best.span.start)) best = o;
    }
    return best;
  }

  /** Symbols visible at `offset` (locals, parameters, globals declared before it; functions, types). */
  visibleAt(offset: number): PineSymbol[] {
    const seen = new Map<string, PineSymbol>();
    for (const s of this.symbols) {
      if (s.kind === "field" || s.kind === "enumMember") continue;
      const global = s.kind === "function" || s.kind === "method" || s.kind === "type" || s.kind === "enum";
      if (!global && (offset < s.visibleFrom || offset > s.visibleTo)) continue;
      const prev = seen.get(s.name);
      // the innermost declaration wins (declared later, in a nested scope)
      if (!prev || s.visibleFrom >= prev.visibleFrom) seen.set(s.name, s);
    }
    return [...seen.values()];
  }

  /** The type name of a symbol, written or inferred. */
  typeName(s: PineSymbol): string | undefined {
    return s.writtenType ?? s.inferred?.name;
  }

  // ------------------------------------------------------------------ declarations

  private declare(
    name: A.Ident,
    kind: SymbolKind,
    node: PineSymbol["node"],
    declSpan: A.Span,
    visible: [number, number],
    extra: Partial<PineSymbol> = {},
  ): PineSymbol {
    const sym: PineSymbol = {
      name: name.name,
      kind,
      nameSpan: name.span,
      declSpan,
      visibleFrom: visible[0],
      visibleTo: visible[1],
      node,
      refs: [],
      inferred: this.typeAt(name.span.start),
      ...extra,
    };
    this.symbols.push(sym);
    this.use(name.span, sym, true);
    return sym;
  }

  private use(span: A.Span, symbol: PineSymbol, declaration = false): void {
    symbol.refs.push(span);
    this.occurrences.push({ span, symbol, declaration });
  }

  private builtin(span: A.Span, builtin: string, role: BuiltinRole): void {
    this.occurrences.push({ span, builtin, role });
  }

  /** Functions, methods, types, enums and imports are visible in the whole script. */
  private hoist(s: A.Stmt): void {
    const all: [number, number] = [0, this.ast.span.end];
    switch (s.kind) {
      case "FuncDecl": {
        const sym = this.declare(s.name, s.isMethod ? "method" : "function", s, s.span, all, { doc: s.doc });
        const table = s.isMethod ? this.methods : this.functions;
        table.set(s.name.name, [...(table.get(s.name.name) ?? []), sym]);
        return;
      }
      case "TypeDecl": {
        const sym = this.declare(s.name, "type", s, s.span, all, { doc: s.doc });
        this.types.set(s.name.name, sym);
        const fields = new Map<string, PineSymbol>();
        for (const f of s.fields)
          fields.set(
            f.name.name,
            this.declare(f.name, "field", f, f.span, all, {
              container: sym,
              writtenType: typeText(f.type),
              doc: fieldDoc(s, f),
            }),
          );
        this.members.set(sym, fields);
        return;
      }
      case "EnumDecl": {
        const sym = this.declare(s.name, "enum", s, s.span, all, { doc: s.doc });
        this.enums.set(s.name.name, sym);
        const members = new Map<string, PineSymbol>();
        for (const m of s.members)
          members.set(m.name.name, this.declare(m.name, "enumMember", m, m.span, all, { container: sym }));
        this.members.set(sym, members);
        return;
      }
      case "Import": {
        const alias = s.alias ?? this.importName(s);
        this.libraries.set(alias.name, this.declare(alias, "library", s, s.span, all));
        return;
      }
      default:
        return;
    }
  }

  /** `import user/Lib/3` without `as`: the library name `Lib` is the alias. */
  private importName(s: A.Import): A.Ident {
    const at = this.text.indexOf(`/${s.name}/`, s.span.start);
    if (at < 0 || at >= s.span.end) return { kind: "Ident", name: s.name, span: s.span };
    const start = at + 1;
    const column = s.span.column + (start - s.span.start);
    const span = {
      start,
      end: start + s.name.length,
      line: s.span.line,
      column,
      endLine: s.span.line,
      endColumn: column + s.name.length,
    };
    return { kind: "Ident", name: s.name, span };
  }

  // ------------------------------------------------------------------ statements

  private stmt(s: A.Stmt, scope: Scope, fn: PineSymbol | undefined): void {
    switch (s.kind) {
      case "VarDecl": {
        if (s.type) this.typeRef(s.type);
        this.expr(s.init, scope);
        const sym = this.declare(s.name, "variable", s, s.span, [s.span.end, scope.end], {
          container: fn,
          writtenType: s.type ? typeText(s.type) : undefined,
          doc: s.doc,
        });
        scope.vars.set(s.name.name, sym);
        return;
      }
      case "TupleDecl":
        this.expr(s.init, scope);
        for (const n of s.names) {
          if (n.name === "_") continue;
          scope.vars.set(n.name, this.declare(n, "variable", s, s.span, [s.span.end, scope.end], { container: fn }));
        }
        return;
      case "Assign":
        this.expr(s.value, scope);
        this.expr(s.target, scope);
        return;
      case "ExprStmt":
        this.expr(s.expr, scope);
        return;
      case "FuncDecl": {
        const self = this.symbols.find((x) => x.nameSpan === s.name.span);
        const inner = new Scope(scope, s.span.end);
        for (const p of s.params) {
          if (p.type) this.typeRef(p.type);
          if (p.default) this.expr(p.default, scope);
          inner.vars.set(
            p.name.name,
            this.declare(p.name, "parameter", p, p.span, [p.span.end, s.span.end], {
              container: self,
              writtenType: p.type ? typeText(p.type) : undefined,
              doc: paramDoc(s, p),
            }),
          );
        }
        this.block(s.body, inner, self);
        return;
      }
      case "TypeDecl":
        for (const f of s.fields) {
          this.typeRef(f.type);
          if (f.default) this.expr(f.default, scope);
        }
        return;
      default:
        return;
    }
  }

  private block(b: A.Block, scope: Scope, fn: PineSymbol | undefined): void {
    for (const s of b.body) this.stmt(s, scope, fn);
  }

  private typeRef(t: A.TypeRef): void {
    for (const a of t.args) this.typeRef(a);
    const span = {
      ...t.span,
      end: t.span.start + t.name.length,
      endLine: t.span.line,
      endColumn: t.span.column + t.name.length,
    };
    const user = this.types.get(t.name) ?? this.enums.get(t.name);
    if (user) this.use(span, user);
    else if (BUILTIN_TYPES.has(t.name)) this.builtin(span, t.name, "type");
  }

  // ------------------------------------------------------------------ expressions

  private expr(e: A.Expr, scope: Scope): void {
    switch (e.kind) {
      case "Ident":
        this.ident(e, scope);
        return;
      case "Member":
        this.member(e, scope);
        return;
      case "Call":
        this.call(e, scope);
        return;
      case "Index":
        this.expr(e.object, scope);
        this.expr(e.index, scope);
        return;
      case "Unary":
        this.expr(e.operand, scope);
        return;
      case "Binary":
        this.expr(e.left, scope);
        this.expr(e.right, scope);
        return;
      case "Ternary":
        this.expr(e.cond, scope);
        this.expr(e.then, scope);
        this.expr(e.else, scope);
        return;
      case "Tuple":
        for (const x of e.elements) this.expr(x, scope);
        return;
      case "Paren":
        this.expr(e.expr, scope);
        return;
      case "If":
        this.expr(e.cond, scope);
        this.block(e.then, new Scope(scope, e.then.span.end), undefined);
        if (e.else?.kind === "If") this.expr(e.else, scope);
        else if (e.else) this.block(e.else, new Scope(scope, e.else.span.end), undefined);
        return;
      case "Switch":
        if (e.subject) this.expr(e.subject, scope);
        for (const c of e.cases) {
          if (c.test) this.expr(c.test, scope);
          this.block(c.body, new Scope(scope, c.body.span.end), undefined);
        }
        return;
      case "For": {
        this.expr(e.from, scope);
        this.expr(e.to, scope);
        if (e.step) this.expr(e.step, scope);
        const inner = new Scope(scope, e.span.end);
        inner.vars.set(
          e.counter.name,
          this.declare(e.counter, "variable", e.counter, e.counter.span, [e.counter.span.end, e.span.end]),
        );
        this.block(e.body, inner, undefined);
        return;
      }
      case "ForIn": {
        this.expr(e.iterable, scope);
        const inner = new Scope(scope, e.span.end);
        for (const n of e.index ? [e.index, e.value] : [e.value])
          inner.vars.set(n.name, this.declare(n, "variable", n, n.span, [n.span.end, e.span.end]));
        this.block(e.body, inner, undefined);
        return;
      }
      case "While":
        this.expr(e.cond, scope);
        this.block(e.body, new Scope(scope, e.span.end), undefined);
        return;
      default:
        return;
    }
  }

  private ident(e: A.Ident, scope: Scope): void {
    const v = scope.lookup(e.name);
    if (v) {
      this.use(e.span, v);
      return;
    }
    const fn = this.functions.get(e.name)?.[0];
    if (fn) {
      this.use(e.span, fn);
      return;
    }
    const ty = this.types.get(e.name) ?? this.enums.get(e.name) ?? this.libraries.get(e.name);
    if (ty) {
      this.use(e.span, ty);
      return;
    }
    if (catalogVariable(e.name) !== undefined) {
      this.builtin(e.span, e.name, "variable");
      return;
    }
    if (catalogConstant(e.name) !== undefined) {
      this.builtin(e.span, e.name, "constant");
      return;
    }
    if (isNamespace(e.name)) {
      this.builtin(e.span, e.name, "namespace");
      return;
    }
  }

  /** `a.b` not called: a field, an enum member, a builtin variable or constant (`color.red`). */
  private member(e: A.Member, scope: Scope): void {
    const dn = dotted(e);
    const root = rootIdent(e);
    if (dn !== undefined && root && !scope.lookup(root.name)) {
      const owner = this.enums.get(dn.slice(0, dn.lastIndexOf(".")));
      if (owner) {
        this.expr(e.object, scope);
        const m = this.members.get(owner)?.get(e.property.name);
        if (m) this.use(e.property.span, m);
        return;
      }
      const role =
        catalogVariable(dn) !== undefined ? "variable" : catalogConstant(dn) !== undefined ? "constant" : undefined;
      if (role || isNamespace(dn)) {
        this.namespaces(e.object);
        this.builtin(e.property.span, dn, role ?? "namespace");
        return;
      }
    }
    this.expr(e.object, scope);
    const owner = this.objectType(e.object, scope);
    const field = owner ? this.members.get(owner)?.get(e.property.name) : undefined;
    if (field) this.use(e.property.span, field);
  }

  private call(e: A.Call, scope: Scope): void {
    for (const t of e.typeArgs ?? []) this.typeRef(t);
    const callee = e.callee;
    let params: ((name: string) => PineSymbol | undefined) | undefined;
    let builtinName: string | undefined;
    if (callee.kind === "Ident") {
      const local = scope.lookup(callee.name);
      const fns = this.functions.get(callee.name);
      if (!local && fns?.length) {
        const fn = pickOverload(fns, e.args.length);
        this.use(callee.span, fn);
        params = (n) => this.paramOf(fn, n);
      } else if (catalogFunction(callee.name)) {
        this.builtin(callee.span, callee.name, "function");
        builtinName = callee.name;
      } else this.expr(callee, scope);
    } else if (callee.kind === "Member") {
      const dn = dotted(callee);
      const root = rootIdent(callee);
      const rootIsVar = root !== undefined && scope.lookup(root.name) !== undefined;
      const prop = callee.property;
      const udt = dn !== undefined && !rootIsVar ? this.types.get(dn.slice(0, dn.lastIndexOf("."))) : undefined;
      if (udt && (prop.name === "new" || prop.name === "copy")) {
        this.use(rootIdent(callee)!.span, udt);
        if (prop.name === "new") params = (n) => this.members.get(udt)?.get(n);
      } else if (dn !== undefined && !rootIsVar && this.libraries.has(root!.name)) {
        this.use(root!.span, this.libraries.get(root!.name)!);
      } else if (dn !== undefined && !rootIsVar && catalogFunction(dn)) {
        this.namespaces(callee.object);
        this.builtin(prop.span, dn, "function");
        builtinName = dn;
      } else {
        // a method call on a value
        this.expr(callee.object, scope);
        const userMethods = this.methods.get(prop.name);
        if (userMethods?.length) {
          const m = pickOverload(userMethods, e.args.length + 1);
          this.use(prop.span, m);
          params = (n) => this.paramOf(m, n);
        } else {
          const tn = this.exprType(callee.object, scope);
          const ns = tn ? METHOD_NS[genericHead(tn)] : undefined;
          if (ns && catalogFunction(`${ns}.${prop.name}`)) {
            builtinName = `${ns}.${prop.name}`;
            this.builtin(prop.span, builtinName, "function");
          }
        }
      }
    } else this.expr(callee, scope);
    for (const a of e.args) {
      if (a.name) {
        const p = params?.(a.name.name);
        if (p) this.use(a.name.span, p);
        else if (builtinName) this.builtin(a.name.span, `${builtinName}(${a.name.name})`, "parameter");
      }
      this.expr(a.value, scope);
    }
  }

  /** The namespace parts of a builtin's dotted name (`ta` in `ta.sma`, `strategy.risk` ...). */
  private namespaces(e: A.Expr): void {
    const dn = dotted(e);
    if (dn === undefined) return;
    const span = e.kind === "Member" ? e.property.span : e.span;
    this.builtin(span, dn, "namespace");
    if (e.kind === "Member") this.namespaces(e.object);
  }

  private paramOf(fn: PineSymbol, name: string): PineSymbol | undefined {
    const decl = fn.node as A.FuncDecl;
    const p = decl.params.find((x) => x.name.name === name);
    return p ? this.symbols.find((s) => s.nameSpan === p.name.span) : undefined;
  }

  /** The user type (or enum) of an expression's value, if the walk can tell. */
  private objectType(e: A.Expr, scope: Scope | undefined): PineSymbol | undefined {
    const tn = this.exprType(e, scope);
    return tn ? (this.types.get(tn) ?? this.enums.get(tn)) : undefined;
  }

  /** The type name of an expression: variables and fields by their types, `T.new()` by T. */
  exprType(e: A.Expr, scope: Scope | undefined): string | undefined {
    switch (e.kind) {
      case "Ident": {
        const v = scope?.lookup(e.name);
        return v ? this.typeName(v) : catalogVariable(e.name)?.split(" ").pop();
      }
      case "Paren":
        return this.exprType(e.expr, scope);
      case "Index":
        return this.exprType(e.object, scope);
      case "Member": {
        const owner = this.objectType(e.object, scope);
        const f = owner ? this.members.get(owner)?.get(e.property.name) : undefined;
        return f ? this.typeName(f) : undefined;
      }
      case "Call": {
        const dn = dotted(e.callee);
        if (dn?.endsWith(".new")) {
          const head = dn.slice(0, -4);
          if (this.types.has(head)) return head;
          if (e.typeArgs?.length) return `${head}<${e.typeArgs.map(typeText).join(",")}>`;
        }
        const fn = dn ? this.functions.get(dn)?.[0] : undefined;
        return fn?.inferred?.name;
      }
      default:
        return undefined;
    }
  }
}

function pickOverload(list: PineSymbol[], args: number): PineSymbol {
  return list.find((f) => (f.node as A.FuncDecl).params.length >= args) ?? list[0]!;
}

export function dotted(e: A.Expr): string | undefined {
  if (e.kind === "Ident") return e.name;
  if (e.kind === "Member") {
    const o = dotted(e.object);
    return o === undefined ? undefined : `${o}.${e.property.name}`;
  }
  return undefined;
}

function rootIdent(e: A.Expr): A.Ident | undefined {
  while (e.kind === "Member") e = e.object;
  return e.kind === "Ident" ? e : undefined;
}

export function genericHead(t: string): string {
  const lt = t.indexOf("<");
  return lt < 0 ? t : t.slice(0, lt);
}

export function typeText(t: A.TypeRef): string {
  const base = t.args.length ? `${t.name}<${t.args.map(typeText).join(", ")}>` : t.name;
  return t.legacyArray ? `array<${base}>` : base;
}

function paramDoc(f: A.FuncDecl, p: A.Param): A.DocAnnotation[] | undefined {
  const d = f.doc?.filter((x) => x.tag === "param" && x.name === p.name.name);
  return d?.length ? d : undefined;
}

function fieldDoc(t: A.TypeDecl, f: A.FieldDecl): A.DocAnnotation[] | undefined {
  const d = t.doc?.filter((x) => x.tag === "field" && x.name === f.name.name);
  return d?.length ? d : undefined;
}
