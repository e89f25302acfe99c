// The checker: resolves names, infers types and qualifiers, maps call arguments, inlines one
// instance of a user function per call site (so each call site owns its state), and records which
// variables need history. Produces the ResolvedProgram every backend runs.

import type * as A from "../lang/ast.js";
import type { LibrarySource } from "../core/result.js";
import type { BuiltinDef } from "../catalog/contract.js";
import { catalogFunction, catalogConstant, catalogVariable, isNamespace } from "../catalog/index.js";
import {
  catalogFunctionFor,
  nameV5When,
  rewriteTransp,
  takesTransp,
  v4Hint,
  v4InputArg,
  v4ValueHint,
  v5Constant,
} from "../catalog/v5.js";
import { type EnumValue, packColor } from "../core/values.js";
import { checkQualifier, FRACTIONAL_REDUCTIONS, placeArgs, resultType } from "./builtin-calls.js";
import { argError, builtinArgError, needsBoolCast, shownType, valueFits, type ArgSite } from "./arg-types.js";
import { Undetermined } from "./undetermined.js";
import { constEval, dottedName } from "./consteval.js";
import { CheckError, declaredNames, Poisoned } from "./errors.js";
import { COLUMN_HISTORY_LIMIT, HISTORY_LIMIT, historyOffsetMessage, maxBarsBackMessage } from "./history-limits.js";
import type { Declaration, FuncInstance, RBlock, RExpr, RStmt, ResolvedProgram, UdtInfo, VarSlot } from "./ir.js";
import { Scope } from "./scope.js";
import {
  assignable,
  CONST,
  DRAWING_TYPES,
  elemOf,
  genericHead,
  isNumeric,
  keyOf,
  maxQ,
  NA_T,
  parseTypeText,
  SERIES,
  SIMPLE,
  t,
  typeText,
  unify,
  VOID_T,
  type PType,
  type Qual,
} from "./types.js";
import { checkBlock, checkControl, checkStatement } from "./statements.js";
import { naValue, toBool } from "./ir-values.js";

export interface Registry {
  functions: Record<string, BuiltinDef>;
  variables: Record<string, import("../catalog/contract.js").BuiltinVariable>;
  constants: Record<string, unknown>;
}

/**
 * The one qualifier every item of a returned tuple shares (User Manual, "Functions that return multiple
 * results": "functions cannot return multiple results with different type qualifiers ... If the tuple does
 * not rely on a 'series' value, all the items in the tuple typically inherit the 'simple' qualifier.
 * Otherwise, all items inherit the 'series' qualifier"): the strongest item's, at least simple.
 */
export function tupleQual(items: Qual[]): Qual {
  let q: Qual = SIMPLE;
  for (const x of items) if (x > q) q = x;
  return q;
}

export const DEFAULT_MAX_BARS_BACK = 5000;
const SOURCE_NAMES = new Set(["open", "high", "low", "close", "volume", "hl2", "hlc3", "ohlc4", "hlcc4"]);
/** Documented parameter types that take only builtin "unique" constants (plot.style_*, shape.*, ...). */
const UNIQUE_CONSTANT_TYPE =
  /\b(plot_style|plot_display|plot_simple_display|plot_line_style|hline_style|scale_type|sort_order|barmerge_gaps|barmerge_lookahead|text_format)\b/;
const COLUMN_VARS = new Set(["open", "high", "low", "close", "volume", "time"]);
const CASTS = new Set([
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
]);
const PLOT_FAMILY = new Set([
  "plot",
  "plotshape",
  "plotchar",
  "plotarrow",
  "plotbar",
  "plotcandle",
  "hline",
  "fill",
  "bgcolor",
  "barcolor",
]);
/** Built-in object types with fields: a chart.point is PineObject("chart.point", [time, index, price]). */
const BUILTIN_OBJECT_TYPES = new Map<string, UdtInfo>([
  [
    "chart.point",
    {
      name: "chart.point",
      fields: [
        { name: "time", type: t("int", SERIES), default: null },
        { name: "index", type: t("int", SERIES), default: null },
        { name: "price", type: t("float", SERIES), default: null },
      ],
    },
  ],
]);
/** Order functions whose v5 form takes `when` (removed in v6). */
const WHEN_ORDER_FUNCS = new Set([
  "strategy.entry",
  "strategy.order",
  "strategy.exit",
  "strategy.close",
  "strategy.close_all",
  "strategy.cancel",
  "strategy.cancel_all",
]);
/** Constructors whose `<...>` type arguments the builtin reads from its call site. */
const TYPED_CONSTRUCTORS = new Set(["array.new", "matrix.new", "map.new"]);
const QUALIFIERS: Record<A.Qualifier, Qual> = { const: CONST, simple: SIMPLE, series: SERIES };
const METHOD_NS: Record<string, string> = {
  array: "array",
  matrix: "matrix",
  map: "map",
  string: "str",
  color: "color",
  "chart.point": "chart.point",
  footprint: "footprint",
  volume_row: "volume_row",
};

export interface EnumInfo {
  name: string;
  members: Map<string, EnumValue>;
}

export class Checker {
  readonly version: number;
  readonly slots: VarSlot[] = [];
  siteCount = 0;
  onceCount = 0;
  readonly global = new Scope(null);
  readonly funcs = new Map<string, A.FuncDecl[]>();
  readonly methods = new Map<string, A.FuncDecl[]>();
  readonly udts = new Map<string, UdtInfo>();
  readonly enums = new Map<string, EnumInfo>();
  readonly siteTypeArgs = new Map<number, string[]>();
  readonly inputVarNames = new Map<number, string>();
  readonly inputSourceNames = new Map<number, string>();
  readonly varipSlots: number[] = [];
  readonly varipOnce: number[] = [];
  /** Names that are ever reassigned: their variables are series, never const. */
  readonly mutated = new Set<string>();
  /** Values of global `const`-qualified variables with a constant initialiser (`const string VER = "2"`),
   *  usable in declaration arguments: `indicator("Name v" + VER)`. */
  readonly globalConsts = new Map<string, unknown>();
  private readonly instStack: A.FuncDecl[] = [];
  /** Variables created by each function instance being checked (innermost last). */
  private readonly localStack: VarSlot[][] = [];
  declaration: Declaration | null = null;
  /** Kind of the script's declaration statement, known before the body is checked (a strategy.* call in an indicator is an error wherever it appears). */
  declaredKind: Declaration["kind"] | null = null;
  maxBarsBack = DEFAULT_MAX_BARS_BACK;
  compileReason: string | undefined;
  /** Variable name of the declaration being checked (for input overrides by name). */
  declName: string | null = null;

  /** Variables and calls whose type depends on an untyped function parameter (undetermined.ts). */
  readonly undetermined = new Undetermined();

  /** Statements brought in by imports (library constants), run before the script's own. */
  readonly prelude: RStmt[] = [];
  /**
   * The type of each declared name, by the source offset of the name (variables, parameters, loop
   * variables; a function's name gets its result): what an editor's hover and inlay hints show. A
   * function instantiated at several call sites keeps its first instance's types.
   */
  readonly declaredTypes = new Map<number, PType>();
  /** Every independent error found so far (the checker recovers per statement, `recover`). */
  readonly errors: CheckError[] = [];
  /** Warnings of a script that checks (v5's repeated arguments); shown by `check`'s diagnostics-only mode. */
  readonly warnings: A.Diagnostic[] = [];
  /** Names whose declaring statement failed: a use of one is not reported again (`Poisoned`). */
  private readonly poisoned = new Set<string>();
  /** Unknown names already reported in the part being checked (`unknownName`, `attempt`). */
  private unknownHere: Set<string> | null = null;
  /** Hidden global slots recording builtin variables read with [] (builtinHistory). */
  private readonly builtinHist = new Map<string, VarSlot>();

  constructor(
    readonly program: A.Program,
    readonly registry: Registry,
    readonly libraries: LibrarySource[] = [],
  ) {
    this.version = program.version || 6;
  }

  run(): ResolvedProgram {
    if (this.version < 5)
      throw new CheckError(
        `Pine Script v${this.version} is not supported: use //@version=5 or //@version=6`,
        this.program.span,
      );
    collectMutations(this.program, this.mutated);
    this.declaredKind = declarationKind(this.program);
    const stmts: RStmt[] = [];
    for (const s of this.program.body) {
      const r = this.recover(s, () => checkStatement(this, s, this.global))?.value;
      stmts.push(...this.prelude.splice(0));
      if (r) stmts.push(r);
    }
    // reported only on an otherwise clean script: after errors it may well be one of them (a failed
    // `study()`, a declaration call with a bad argument)
    if (!this.declaration && !this.errors.length)
      this.errors.push(
        new CheckError("Script must have one indicator(), strategy() or library() declaration", this.program.span),
      );
    const declaration = this.declaration;
    if (this.errors.length || !declaration) throw this.errors[0]!;
    const body: RBlock = { stmts, t: VOID_T };
    return {
      version: this.version,
      body,
      slots: this.slots,
      siteCount: this.siteCount,
      siteTypeArgs: this.siteTypeArgs,
      onceCount: this.onceCount,
      declaration,
      inputVarNames: this.inputVarNames,
      inputSourceNames: this.inputSourceNames,
      enums: new Map([...this.enums].map(([k, v]) => [k, [...v.members.values()]])),
      udts: this.udts,
      varipSlots: this.varipSlots,
      varipOnce: this.varipOnce,
      maxBarsBack: this.maxBarsBack,
      compileEligible: false,
      compileReason: this.compileReason,
    };
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Checks one statement; a check error in it is recorded in `errors` and the statement dropped, so
   * checking goes on with the next one and every independent error is reported in one pass. The names
   * the failed statement declares are poisoned: later uses of them fail silently instead of cascading
   * ("Undeclared identifier" after a bad declaration).
   */
  recover<T>(s: A.Stmt, checkIt: () => T): { value: T } | undefined {
    const r = this.attempt(checkIt);
    if (!r) for (const n of declaredNames(s)) this.poisoned.add(n);
    return r;
  }

  /**
   * An unknown name's error, once per expression: the other sub-expressions are checked after an error
   * (`exprs`), and `x = foo + foo * 2` is one mistake, not two. Each independently checked part
   * (`attempt`: a statement, an if branch, a switch case) reports the name again, as before.
   */
  private unknownName(name: string, err: CheckError): never {
    if (this.unknownHere?.has(name)) throw new Poisoned();
    (this.unknownHere ??= new Set()).add(name);
    throw err;
  }

  /** Runs one independent part of a check; its error is recorded and `undefined` returned. */
  attempt<T>(checkIt: () => T): { value: T } | undefined {
    const saved = this.unknownHere;
    this.unknownHere = null;
    try {
      return { value: checkIt() };
    } catch (err) {
      this.record(err);
      return undefined;
    } finally {
      this.unknownHere = saved;
    }
  }

  /** Records a check error (once: a function body's error comes back from each call site); rethrows anything else. */
  private record(err: unknown): void {
    if (!(err instanceof CheckError) && !(err instanceof Poisoned)) throw err;
    if (err instanceof CheckError && !this.errors.some((x) => sameError(x, err))) this.errors.push(err);
  }

  /**
   * Checks sibling sub-expressions that do not depend on each other (a call's arguments, an operator's
   * operands, a tuple's elements): each one's error is recorded, so `ta.sma(foo, 1) + bar` reports
   * both names, and then the whole expression fails as `Poisoned`, without a follow-up error about it.
   */
  /** `exprs` for parts checked by other means (conditions): each part's result, or `Poisoned` after all ran. */
  siblings<T extends unknown[]>(...parts: { [K in keyof T]: () => T[K] }): T {
    const out = new Array(parts.length) as T;
    let failed = false;
    for (let i = 0; i < parts.length; i++) {
      try {
        out[i] = parts[i]!();
      } catch (err) {
        this.record(err);
        failed = true;
      }
    }
    if (failed) throw new Poisoned();
    return out;
  }

  exprs(es: readonly A.Expr[], scope: Scope): RExpr[] {
    const out: RExpr[] = new Array(es.length);
    let failed = false;
    for (let i = 0; i < es.length; i++) {
      try {
        out[i] = this.expr(es[i]!, scope);
      } catch (err) {
        this.record(err);
        failed = true;
      }
    }
    if (failed) throw new Poisoned();
    return out;
  }

  /** A name (or the root of a dotted one, a library alias) whose declaration failed. */
  isPoisoned(name: string): boolean {
    if (this.poisoned.size === 0) return false;
    const dot = name.indexOf(".");
    return this.poisoned.has(name) || (dot > 0 && this.poisoned.has(name.slice(0, dot)));
  }

  /** Throws `Poisoned` instead of a follow-up error about a name whose declaration already failed. */
  private unlessPoisoned(name: string): void {
    if (this.isPoisoned(name)) throw new Poisoned();
  }

  // ------------------------------------------------------------------ slots

  /** A new variable; `at` is the span of the name that declares it (recorded for editor tools). */
  newSlot(name: string, type: PType, at?: A.Span): VarSlot {
    const v: VarSlot = { name, slot: this.slots.length, type, histDepth: 0, hist: -1 };
    this.slots.push(v);
    if (at && !this.declaredTypes.has(at.start)) this.declaredTypes.set(at.start, type);
    const locals = this.localStack[this.localStack.length - 1];
    if (locals) {
      v.fnLocal = true;
      locals.push(v);
    }
    return v;
  }

  needHistory(v: VarSlot, n: number | null): void {
    const depth = n === null ? this.maxBarsBack : n;
    if (depth > v.histDepth) v.histDepth = depth;
  }

  typeFromRef(ref: A.TypeRef): string {
    if (ref.legacyArray) return `array<${ref.name}>`;
    if (ref.args.length) {
      const args = ref.args.map((a) => this.typeFromRef(a));
      if (args.some((a) => /^(array|matrix|map)</.test(a)))
        throw new CheckError(
          `Collections cannot contain collections directly: wrap the inner one in a user-defined type`,
          ref.span,
        );
      if (
        ref.name === "map" &&
        args[0] &&
        !["int", "float", "bool", "color", "string"].includes(args[0]) &&
        !this.enums.has(args[0])
      )
        throw new CheckError(`Map keys must be of a fundamental type or an enum, got ${args[0]}`, ref.args[0]!.span);
      return `${ref.name}<${args.join(",")}>`;
    }
    const n = ref.name;
    if (
      ["int", "float", "bool", "color", "string"].includes(n) ||
      DRAWING_TYPES.has(n) ||
      n === "footprint" ||
      n === "volume_row"
    )
      return n;
    if (this.udts.has(n) || this.enums.has(n)) return n;
    if (n === "array" || n === "matrix" || n === "map") return n;
    this.unlessPoisoned(n);
    throw new CheckError(`Unknown type '${n}'`, ref.span);
  }

  /** Is `n` a declared enum (one function for every builtin call's argument checks). */
  private readonly isEnum = (n: string): boolean => this.enums.has(n);

  constantValue = (name: string): unknown => {
    if (name in this.registry.constants) return this.registry.constants[name];
    const en = this.enumMember(name);
    if (en) return en;
    return undefined;
  };

  /** Field layout of a user type or of a built-in object type (chart.point). */
  objectType(name: string): UdtInfo | undefined {
    return this.udts.get(name) ?? BUILTIN_OBJECT_TYPES.get(name);
  }

  enumMember(name: string): EnumValue | undefined {
    const dot = name.lastIndexOf(".");
    if (dot < 0) return undefined;
    return this.enums.get(name.slice(0, dot))?.members.get(name.slice(dot + 1));
  }

  // ------------------------------------------------------------------ expressions

  expr(e: A.Expr, scope: Scope): RExpr {
    switch (e.kind) {
      case "Number":
        return { k: "const", v: e.value, t: t(e.isInt ? "int" : "float", CONST) };
      case "String":
        return { k: "const", v: e.value, t: t("string", CONST) };
      case "Bool":
        return { k: "const", v: e.value, t: t("bool", CONST) };
      case "Na":
        return { k: "const", v: NaN, t: NA_T };
      case "Color":
        return { k: "const", v: packColor(e.r, e.g, e.b, e.a), t: t("color", CONST) };
      case "Paren":
        return this.expr(e.expr, scope);
      case "Ident":
        return this.ident(e, scope);
      case "Member":
        return this.member(e, scope);
      case "Call":
        return this.call(e, scope);
      case "Index":
        return this.index(e, scope);
      case "Unary":
        return this.unary(e, scope);
      case "Binary":
        return this.binary(e, scope);
      case "Ternary": {
        // the manual: a ternary's values are not local blocks, so they cannot be tuples (if/switch blocks can)
        const tup = e.then.kind === "Tuple" ? e.then : e.else.kind === "Tuple" ? e.else : undefined;
        if (tup)
          throw new CheckError(
            "A ternary cannot return a tuple: use an if or switch block instead ([a, b] = if cond ... [x, y] else ... [z, w])",
            tup.span,
          );
        const [c, a, b] = this.siblings(
          () => this.cond(e.cond, scope, "?:"),
          () => this.expr(e.then, scope),
          () => this.expr(e.else, scope),
        );
        const name = unify(a.t.name, b.t.name, this.version);
        if (!name)
          throw new CheckError(
            `Ternary branches have incompatible types: ${typeText(a.t)} and ${typeText(b.t)}`,
            e.span,
          );
        // an na branch holds the result type's na (null for strings and objects)
        const typed = (x: RExpr): RExpr =>
          x.k === "const" && x.t.name === "na" && name !== "na" && name !== "bool"
            ? { k: "const", v: naValue(name), t: t(name, CONST) }
            : x;
        const frac = name === "int" && (a.t.frac || b.t.frac) ? { frac: true } : {};
        return { k: "tern", c, a: typed(a), b: typed(b), t: { name, q: maxQ(c.t.q, maxQ(a.t.q, b.t.q)), ...frac } };
      }
      case "Tuple": {
        const elems = this.exprs(e.elements, scope);
        return {
          k: "tuple",
          elems,
          t: { name: "tuple", q: tupleQual(elems.map((x) => x.t.q)), elems: elems.map((x) => x.t) },
        };
      }
      case "If":
      case "Switch":
      case "For":
      case "ForIn":
      case "While":
        return checkControl(this, e, scope);
    }
  }

  cond(e: A.Expr, scope: Scope, what: string): RExpr {
    const r = this.expr(e, scope);
    if (r.t.name === "bool") return r;
    if (this.version < 6 && (isNumeric(r.t.name) || r.t.name === "na"))
      return { k: "cast", to: "bool", e: r, t: { name: "bool", q: r.t.q } };
    throw new CheckError(
      `Condition of '${what}' must be bool, got ${typeText(r.t)}${this.version >= 6 && isNumeric(r.t.name) ? " (v6 has no implicit cast to bool: use bool(x))" : ""}`,
      e.span,
    );
  }

  private ident(e: A.Ident, scope: Scope): RExpr {
    const found = scope.lookup(e.name);
    if (found) return { k: "load", v: found.v.slot, t: found.v.slot.type };
    return this.named(e.name, e);
  }

  /** A dotted or plain name that is not a variable: builtin variable, constant, enum member. */
  named(name: string, node: A.Node): RExpr {
    const libConst = this.global.vars.get(name);
    if (libConst) return { k: "load", v: libConst.slot, t: libConst.slot.type };
    const bv = this.registry.variables[name];
    if (bv) {
      const ty = parseTypeText(catalogVariable(name) ?? "series float");
      return { k: "bvar", def: bv, site: this.siteCount++, t: ty };
    }
    if (name in this.registry.constants) {
      const v = v5Constant(name, this.version) ?? this.registry.constants[name];
      const doc = catalogConstant(name);
      const dt = doc ? parseTypeText(doc) : undefined;
      // special documented types (plot_style, plot_display, ...) are plain strings/numbers here
      const ty = dt && ["int", "float", "bool", "color", "string"].includes(dt.name) ? dt : constType(v);
      return { k: "const", v, t: ty };
    }
    const en = this.enumMember(name);
    if (en) return { k: "const", v: en, t: t(en.enumName, CONST) };
    if (catalogVariable(name) || catalogConstant(name))
      throw new CheckError(`Builtin '${name}' is not implemented yet`, node.span);
    this.unlessPoisoned(name);
    this.unknownName(name, new CheckError(v4ValueHint(name) ?? `Undeclared identifier '${name}'`, node.span));
  }

  private member(e: A.Member, scope: Scope): RExpr {
    const dn = dottedName(e);
    const rootIsVar = rootIdent(e) !== undefined && scope.lookup(rootIdent(e)!) !== undefined;
    if (dn !== undefined && !rootIsVar) return this.named(dn, e);
    const obj = this.expr(e.object, scope);
    const udt = this.objectType(obj.t.name);
    const idx = udt ? udt.fields.findIndex((f) => f.name === e.property.name) : -1;
    if (udt && idx >= 0) return { k: "field", obj, index: idx, t: { name: udt.fields[idx]!.type.name, q: SERIES } };
    // a variable named like a builtin namespace (`size = 3`, a parameter `color`) leaves the namespace's
    // members reachable: `size.small` is the constant, `size` alone the variable; a field of the
    // variable's own type comes first
    if (dn !== undefined && this.isBuiltinValue(dn)) return this.named(dn, e);
    if (udt)
      this.unknownName(
        `${udt.name}.${e.property.name}`,
        new CheckError(`Type '${udt.name}' has no field '${e.property.name}'`, e.property.span),
      );
    throw new CheckError(`Cannot access field '${e.property.name}' of ${typeText(obj.t)}`, e.property.span);
  }

  /** A builtin variable, constant or enum member reachable by its dotted name (`size.small`, `color.red`). */
  private isBuiltinValue(name: string): boolean {
    return (
      this.registry.variables[name] !== undefined ||
      name in this.registry.constants ||
      catalogVariable(name) !== undefined ||
      catalogConstant(name) !== undefined
    );
  }

  /**
   * `ns.f(...)` whose root `ns` is a variable: the builtin function `ns.f` unless the call is a method
   * call on that variable. Only a function whose first parameter takes the variable's type can be a
   * method of a collection, drawing or object (`line` holding a line: `line.delete()`); it is the function when the arguments fill
   * its longest parameter list or the first one is that variable again (`line.delete(line[1])`,
   * `color.new(color, 50)`), the method otherwise.
   */
  private namespaceCallOnVariable(dn: string, args: A.Arg[], recvType: string, root: string): boolean {
    const cat = catalogFunction(dn);
    if (!this.registry.functions[dn] && !cat) return false;
    if (!cat) return true;
    // a value (`str = "abc"`, a `color` parameter): `str.tostring(x)`, `color.new(c, 50)` are the
    // functions; only a call without arguments (`str.length()`) can be a method of the value
    if (["int", "float", "bool", "color", "string"].includes(recvType)) return args.length > 0;
    const head = genericHead(recvType);
    const methodLike = cat.fn.lists.some((l) => {
      const p0 = l[0] === undefined ? undefined : cat.fn.types[l[0]];
      return p0?.split(/[\s/]/).some((w) => genericHead(w) === head);
    });
    if (!methodLike) return true;
    if (args.length >= Math.max(...cat.fn.lists.map((l) => l.length))) return true;
    const first = args[0];
    return first !== undefined && first.name === undefined && rootOf(first.value) === root;
  }

  private index(e: A.Index, scope: Scope): RExpr {
    if (this.version >= 6 && ["Number", "String", "Bool", "Color", "Na"].includes(e.object.kind))
      throw new CheckError("The history-referencing operator [] cannot be used on literal values", e.span);
    const off = wholeInt(this.expr(e.index, scope));
    if (off.t.name !== "int" && off.t.name !== "na")
      throw new CheckError(`History offset must be int, got ${typeText(off.t)}`, e.index.span);
    const cv = constEval(e.index, this.constantValue, this.version);
    // a constant int quotient (`close[10 / 4]`) is a whole offset, as the offset expression is truncated
    const n = typeof cv === "number" && cv >= 0 ? Math.trunc(cv) : null;
    if (typeof cv === "number" && cv < 0) throw new CheckError("History offset cannot be negative", e.index.span);
    const obj = e.object;
    if (n !== null) {
      const column = obj.kind === "Ident" && COLUMN_VARS.has(obj.name) && !scope.lookup(obj.name);
      const limit = column ? COLUMN_HISTORY_LIMIT : HISTORY_LIMIT;
      if (n > limit) throw new CheckError(historyOffsetMessage(n, limit), e.index.span);
    }
    if (obj.kind === "Ident") {
      const found = scope.lookup(obj.name);
      if (found) {
        // x[0] is x itself (series): no history ring is needed or allocated for it
        if (n === 0) {
          const cur = this.ident(obj, scope);
          return { ...cur, t: { name: cur.t.name, q: SERIES } };
        }
        const v = found.v.slot;
        this.needHistory(v, n);
        return { k: "hist", v, off, n, t: { name: v.type.name, q: SERIES } };
      }
      if (COLUMN_VARS.has(obj.name) && this.registry.variables[obj.name]) {
        const ty = parseTypeText(catalogVariable(obj.name) ?? "series float");
        return { k: "colHist", col: obj.name as "close", off, n, t: ty };
      }
    }
    const builtin = obj.kind === "Ident" || isNameChain(obj, scope) ? dottedName(obj) : undefined;
    if (builtin !== undefined && n !== 0 && !scope.lookup(builtin) && this.isSeriesBuiltin(builtin)) {
      const v = this.builtinHistory(builtin, obj);
      this.needHistory(v, n);
      return { k: "hist", v, off, n, t: { name: v.type.name, q: SERIES } };
    }
    if (this.version >= 6 && obj.kind === "Member" && !isNameChain(obj, scope)) {
      throw new CheckError("In v6, [] cannot be applied to a UDT field directly: write (obj[1]).field", e.span);
    }
    const inner = this.expr(obj, scope);
    if (inner.t.name === "tuple" || inner.t.name === "void")
      throw new CheckError(`Cannot use [] on ${typeText(inner.t)}`, e.span);
    if (inner.t.q === CONST && this.version >= 6 && inner.k === "const")
      throw new CheckError("The history-referencing operator [] cannot be used on constants", e.span);
    if (n === 0) return { ...inner, t: { name: inner.t.name, q: SERIES } };
    const v = this.newSlot("(history)", { name: inner.t.name, q: SERIES });
    this.needHistory(v, n);
    return { k: "histExpr", e: inner, v, off, n, t: { name: inner.t.name, q: SERIES } };
  }

  /** A builtin series variable other than the bar columns (hl2, bar_index, ta.tr, strategy.position_size, ...). */
  private isSeriesBuiltin(name: string): boolean {
    if (COLUMN_VARS.has(name) || !this.registry.variables[name] || this.global.vars.has(name)) return false;
    return (catalogVariable(name) ?? "series").startsWith("series");
  }

  /**
   * The global slot holding a builtin variable's value on every bar, for `name[k]`. A builtin series has
   * its whole history wherever it is read, but an `(expr)[k]` ring only records the bars on which the
   * expression ran: `hl2[1]` in an `if barstate.islast` block, a loop or a ternary branch read na or a
   * stale bar. The slot's declaration goes before the current top-level statement (the prelude), so it
   * runs on every bar, in secondary request contexts too.
   */
  private builtinHistory(name: string, node: A.Node): VarSlot {
    const known = this.builtinHist.get(name);
    if (known) return known;
    const init = this.named(name, node);
    const v: VarSlot = {
      name: `(history of ${name})`,
      slot: this.slots.length,
      type: { name: init.t.name, q: SERIES },
      histDepth: 0,
      hist: -1,
    };
    this.slots.push(v);
    this.builtinHist.set(name, v);
    this.prelude.push({ k: "decl", v, mode: "plain", init, once: -1, line: node.span.line });
    return v;
  }

  private unary(e: A.Unary, scope: Scope): RExpr {
    if (e.op === "not") {
      const x = this.cond(e.operand, scope, "not");
      return { k: "unary", op: "not", e: x, t: x.t };
    }
    const x = this.expr(e.operand, scope);
    if (!isNumeric(x.t.name) && x.t.name !== "na")
      throw new CheckError(`Cannot apply unary '${e.op}' to ${typeText(x.t)}`, e.span);
    return { k: "unary", op: e.op, e: x, t: x.t };
  }

  private binary(e: A.Binary, scope: Scope): RExpr {
    if (e.op === "and" || e.op === "or") {
      const [l, r] = this.siblings(
        () => this.cond(e.left, scope, e.op),
        () => this.cond(e.right, scope, e.op),
      );
      return { k: e.op, l, r, lazy: this.version >= 6, t: { name: "bool", q: maxQ(l.t.q, r.t.q) } };
    }
    // both operands are checked even when the left one fails (see `exprs`), without a per-operator array
    let l: RExpr | undefined;
    let r: RExpr | undefined;
    try {
      l = this.expr(e.left, scope);
    } catch (err) {
      this.record(err);
    }
    try {
      r = this.expr(e.right, scope);
    } catch (err) {
      this.record(err);
    }
    if (!l || !r) throw new Poisoned();
    const q = maxQ(l.t.q, r.t.q);
    const ln = l.t.name;
    const rn = r.t.name;
    switch (e.op) {
      case "==":
      case "!=":
        if (!unify(ln, rn, this.version) && !(isNumeric(ln) && isNumeric(rn)))
          throw new CheckError(`Cannot compare ${typeText(l.t)} with ${typeText(r.t)}`, e.span);
        return { k: "bin", op: e.op, l, r, t: { name: "bool", q } };
      case "<":
      case "<=":
      case ">":
      case ">=":
        if (!(isNumOrNa(ln) && isNumOrNa(rn)) && !(ln === "string" && rn === "string"))
          throw new CheckError(`Cannot apply '${e.op}' to ${typeText(l.t)} and ${typeText(r.t)}`, e.span);
        return { k: "bin", op: e.op, l, r, t: { name: "bool", q } };
      case "+":
        if (ln === "string" || rn === "string") {
          if ((ln === "string" || ln === "na") && (rn === "string" || rn === "na"))
            return { k: "bin", op: "+", l, r, str: true, t: { name: "string", q } };
          throw new CheckError(`Cannot add ${typeText(l.t)} and ${typeText(r.t)}`, e.span);
        }
        return this.arith(e, l, r, q);
      default:
        return this.arith(e, l, r, q);
    }
  }

  private arith(e: A.Binary, l: RExpr, r: RExpr, q: Qual): RExpr {
    const ln = l.t.name;
    const rn = r.t.name;
    {
      if (!isNumOrNa(ln) || !isNumOrNa(rn))
        throw new CheckError(`Cannot apply '${e.op}' to ${typeText(l.t)} and ${typeText(r.t)}`, e.span);
      const bothInt = (ln === "int" || ln === "na") && (rn === "int" || rn === "na") && !(ln === "na" && rn === "na");
      if (e.op === "/") {
        // the quotient of two ints is typed int in both versions; v5 truncates it when both are const,
        // otherwise it keeps its fraction (the v6 migration guide's "Fractional division of constants")
        if (ln !== "int" || rn !== "int") return { k: "bin", op: "/", l, r, t: { name: "float", q } };
        const intDiv = this.version < 6 && l.t.q === CONST && r.t.q === CONST;
        return { k: "bin", op: "/", l, r, intDiv, t: intDiv ? { name: "int", q } : { name: "int", q, frac: true } };
      }
      if (bothInt && (l.t.frac || r.t.frac)) return { k: "bin", op: e.op, l, r, t: { name: "int", q, frac: true } };
      return { k: "bin", op: e.op, l, r, t: { name: bothInt ? "int" : "float", q } };
    }
  }

  // ------------------------------------------------------------------ calls

  call(e: A.Call, scope: Scope): RExpr {
    const callee = e.callee;
    const typeArgs = (e.typeArgs ?? []).map((r) => this.typeFromRef(r));
    // map.new<K, V>: the same key rule as a declared map<K, V>
    if (
      typeArgs.length === 2 &&
      callee.kind === "Member" &&
      callee.property.name === "new" &&
      callee.object.kind === "Ident" &&
      callee.object.name === "map"
    )
      this.typeFromRef({ ...e.typeArgs![0]!, name: "map", args: e.typeArgs!, legacyArray: false });
    if (callee.kind === "Ident") {
      const name = callee.name;
      if (this.funcs.has(name)) return this.userCall(name, this.funcs.get(name)!, e.args, null, scope, e);
      if (CASTS.has(name) && !this.registry.functions[name]) return this.cast(name, e, scope);
      return this.builtinCall(name, e.args, null, typeArgs, scope, e);
    }
    if (callee.kind !== "Member") throw new CheckError("This expression cannot be called", callee.span);
    const dn = dottedName(callee);
    const root = rootIdent(callee);
    const rootIsVar = root !== undefined && scope.lookup(root) !== undefined;
    if (dn !== undefined && !rootIsVar) {
      const objName = dn.slice(0, dn.lastIndexOf("."));
      const prop = callee.property.name;
      const udt = this.udts.get(objName);
      if (udt && prop === "new") return this.newObject(udt, e, scope);
      if (udt && prop === "copy") {
        const obj = this.expr(e.args[0]!.value, scope);
        return { k: "copy", obj, t: obj.t };
      }
      if (this.funcs.has(dn)) return this.userCall(dn, this.funcs.get(dn)!, e.args, null, scope, e);
      // `label.all.size()`: a method on a builtin variable, dispatched by the variable's type below
      const onBuiltinVar =
        !this.registry.functions[dn] &&
        !catalogFunction(dn) &&
        (this.registry.variables[objName] !== undefined || this.global.vars.has(objName));
      if (!onBuiltinVar && (this.registry.functions[dn] || catalogFunction(dn) || isNamespace(objName)))
        return this.builtinCall(dn, e.args, null, typeArgs, scope, e);
      // otherwise `close.m()`: a user method called on a builtin value
      if (!onBuiltinVar && !this.methods.has(prop)) {
        this.unlessPoisoned(dn);
        this.unknownName(dn, new CheckError(`Could not find function or function reference '${dn}'`, callee.span));
      }
    }
    // method call on a value
    const recv = this.expr(callee.object, scope);
    const prop = callee.property.name;
    if (dn !== undefined && rootIsVar && this.namespaceCallOnVariable(dn, e.args, recv.t.name, root!))
      return this.builtinCall(dn, e.args, null, typeArgs, scope, e);
    const userMethods = (this.methods.get(prop) ?? []).filter((f) => {
      const p0 = f.params[0];
      if (!p0?.type) return true;
      return (
        this.typeFromRef(p0.type) === recv.t.name ||
        (genericHead(this.typeFromRef(p0.type)) === genericHead(recv.t.name) && !p0.type.args.length)
      );
    });
    const head = genericHead(recv.t.name);
    const ns = METHOD_NS[head] ?? (DRAWING_TYPES.has(head) ? head : undefined);
    // a user method named like a builtin one (`method push(array<float> id, float v, int maxSize)`)
    // overloads it: a call whose arguments fit no user signature is the builtin's (`arr.push(x)`)
    const builtinToo =
      ns !== undefined &&
      (this.registry.functions[`${ns}.${prop}`] !== undefined || catalogFunction(`${ns}.${prop}`) !== undefined);
    const fitting = builtinToo ? userMethods.filter((f) => arityFits(f, e.args)) : userMethods;
    if (fitting.length) return this.userCall(prop, fitting, e.args, recv, scope, e);
    if (this.udts.has(recv.t.name) && prop === "copy") return { k: "copy", obj: recv, t: recv.t };
    if (ns) return this.builtinCall(`${ns}.${prop}`, e.args, recv, typeArgs, scope, e);
    this.unlessPoisoned(prop);
    throw new CheckError(`Could not find method '${prop}' for ${typeText(recv.t)}`, callee.property.span);
  }

  private cast(name: string, e: A.Call, scope: Scope): RExpr {
    if (e.args.length !== 1) throw new CheckError(`'${name}()' takes one argument`, e.span);
    const x = this.expr(e.args[0]!.value, scope);
    return { k: "cast", to: name, e: x, t: { name, q: x.t.q } };
  }

  private newObject(udt: UdtInfo, e: A.Call, scope: Scope): RExpr {
    const fields: RExpr[] = udt.fields.map((f) => f.default ?? { k: "const", v: naValue(f.type.name), t: f.type });
    let pos = 0;
    const seen = new Set<number>();
    for (const a of e.args) {
      const idx = a.name ? udt.fields.findIndex((f) => f.name === a.name!.name) : pos++;
      if (idx < 0 || idx >= udt.fields.length)
        throw new CheckError(
          a.name ? `Type '${udt.name}' has no field '${a.name.name}'` : `Too many arguments for '${udt.name}.new'`,
          a.span,
        );
      if (seen.has(idx)) throw new CheckError(`Field '${udt.fields[idx]!.name}' is given more than once`, a.span);
      seen.add(idx);
      const v = this.expr(a.value, scope);
      const field = udt.fields[idx]!;
      if (!valueFits(v.t.name, field.type.name, this.version))
        throw argError(`${udt.name}.new`, field.name, v.t, shownType(field.type), { node: a.value, span: a.span });
      fields[idx] = v;
    }
    return { k: "new", typeName: udt.name, fields, t: t(udt.name, SERIES) };
  }

  checkAssignable(from: PType, to: string, span: A.Span, what: string): void {
    if (assignable(from.name, to, this.version)) return;
    if (genericHead(from.name) === genericHead(to) && (from.name.indexOf("<") < 0 || to.indexOf("<") < 0)) return;
    throw new CheckError(`Cannot assign ${typeText(from)} to ${what} of type ${to}`, span);
  }

  builtinCall(
    name: string,
    args: A.Arg[],
    recv: RExpr | null,
    typeArgs: string[],
    scope: Scope,
    e: A.Call,
    inner = false,
  ): RExpr {
    const cat = catalogFunctionFor(name, this.version);
    const def = this.registry.functions[name] ?? (cat ? this.registry.functions[cat.key] : undefined);
    if (!cat && !def) {
      this.unlessPoisoned(name);
      this.unknownName(
        name,
        new CheckError(v4Hint(name) ?? `Could not find function or function reference '${name}'`, e.callee.span),
      );
    }
    // v5's deprecated transp: the colour arguments become color.new(c, transp) (src/catalog/v5.ts)
    if (this.version < 6 && takesTransp(name)) args = rewriteTransp(name, args);
    // (the call without its `when`, below, comes back here: its arguments are already v6's)
    if (this.version < 6 && !inner) args = nameV5When(name, args);
    const v4Arg = v4InputArg(name, args);
    if (v4Arg) throw new CheckError(v4Arg.message, v4Arg.span);
    if (!def) throw new CheckError(`Builtin '${name}' is not implemented yet`, e.callee.span);
    if ((PLOT_FAMILY.has(name) || name === "alertcondition") && !scope.isGlobal)
      throw new CheckError(`Cannot use '${name}' in local scope`, e.span);
    if (name === "indicator" || name === "strategy" || name === "library") {
      throw new CheckError(`'${name}()' must be a top-level statement`, e.span);
    }
    if (name.startsWith("strategy.") && this.declaredKind === "indicator")
      throw new CheckError(
        `'${name}' can only be used in a strategy() script, and this script is declared with indicator()`,
        e.callee.span,
      );
    const when = WHEN_ORDER_FUNCS.has(name) ? args.find((a) => a.name?.name === "when") : undefined;
    if (when) {
      if (this.version >= 6)
        throw new CheckError(
          `The 'when' parameter was removed in v6: put the call of '${name}' in an 'if' block`,
          when.span,
        );
      // v5: `strategy.entry(..., when = c)` is `if c` + the call without `when`
      const cond = this.cond(when.value, scope, "when");
      const call = this.builtinCall(
        name,
        args.filter((a) => a !== when),
        recv,
        typeArgs,
        scope,
        e,
        true,
      );
      return {
        k: "if",
        cond,
        then: { stmts: [{ k: "expr", e: call, line: e.span.line }], t: VOID_T },
        else: null,
        t: VOID_T,
      };
    }
    const allArgs: A.Arg[] = recv
      ? [{ kind: "Arg", value: { kind: "Na", span: e.span }, span: e.span }, ...args]
      : args;
    const fn = cat?.fn ?? {
      params: allArgs.map((_, i) => `arg${i}`),
      lists: [allArgs.map((_, i) => `arg${i}`)],
      types: {},
      optional: [],
      returns: ["series float"],
    };
    // arguments are checked in source order before placement: the first one's type picks the overload
    const checked = this.exprs(argValues(args), scope);
    if (recv) checked.unshift(recv);
    let placement;
    try {
      placement = placeArgs(
        name,
        fn,
        allArgs,
        this.version,
        checked.map((x) => x.t),
      );
    } catch (err) {
      if (err instanceof CheckError && !err.span) throw new CheckError(err.message, e.span);
      throw err;
    }
    const rargs: (RExpr | undefined)[] = [];
    const argTypes: (PType | undefined)[] = [];
    const firstAt = placement.positions.indexOf(0);
    const argCall = {
      fnName: name,
      version: this.version,
      first: firstAt >= 0 ? checked[firstAt]!.t : undefined,
      typeArgs,
      isEnum: this.isEnum,
    };
    let typeChecked = true;
    if (placement.repeated) this.warnRepeated(name, allArgs, placement.repeated);
    for (let i = 0; i < allArgs.length; i++) {
      const p = placement.positions[i]!;
      if (p < 0) continue; // a v5 repeated argument: the first value is used
      const r = checked[i]!;
      rargs[p] = r;
      argTypes[p] = r.t;
      const pname = fn.params[p];
      if (pname && cat && typeChecked) {
        // the receiver of a method call is written before the dot
        const node = recv && i === 0 ? (e.callee as A.Member).object : allArgs[i]!.value;
        const err = builtinArgError(cat.key, fn, pname, r.t, argCall, {
          node,
          span: recv && i === 0 ? node.span : allArgs[i]!.span,
        });
        // TradingView does not report calls with an argument of undetermined type (see undetermined.ts)
        if (err && !checked.some((x) => this.undetermined.has(x))) throw err;
        if (err) typeChecked = false;
        if (needsBoolCast(cat.key, fn, pname, r.t.name, this.version)) rargs[p] = toBool(r);
        // an int quotient passed where only an int fits (a length, an index, a count) is truncated
        else if (r.t.frac && takesOnlyInt(pname, fn.types[pname])) rargs[p] = wholeInt(r);
      }
      if (pname && cat && !(recv && i === 0)) {
        checkQualifier(name, fn, pname, r.t, allArgs[i]!.span);
        if (this.version >= 6 && allArgs[i]!.value.kind === "Na" && UNIQUE_CONSTANT_TYPE.test(fn.types[pname] ?? ""))
          throw new CheckError(
            `In v6, na cannot be used for '${pname}' of '${name}' (it takes one of the ${fn.types[pname]} constants)`,
            allArgs[i]!.span,
          );
      }
    }
    for (let i = 0; i < rargs.length; i++) if (!(i in rargs)) rargs[i] = undefined;
    let ty = cat ? resultType(name, fn, argTypes, typeArgs) : t("float");
    ty = this.specialResult(name, rargs, ty, e);
    // math.max(len / 2, 1), nz(n / 2): an int result computed from int quotients may keep their fraction
    if (
      ty.name === "int" &&
      !ty.frac &&
      !WHOLE_RESULT.has(name) &&
      (FRACTIONAL_REDUCTIONS.has(name) || rargs.some((a) => a?.t.frac))
    )
      ty = { ...ty, frac: true };
    // array.from's elements share one type (int and float mix to float)
    if (name === "array.from" && typeChecked) {
      const elem = elemOf(ty.name) ?? "float";
      allArgs.forEach((a, i) => {
        if (!valueFits(checked[i]!.t.name, elem, this.version) && !this.undetermined.has(checked[i]!))
          throw argError(name, `arg${i}`, checked[i]!.t, shownType({ name: elem, q: SERIES }), {
            node: a.value,
            span: a.span,
          });
      });
    }
    const site = this.siteCount++;
    const siteTypes =
      TYPED_CONSTRUCTORS.has(name) && typeArgs.length
        ? typeArgs
        : name === "array.from"
          ? [elemOf(ty.name) ?? "float"]
          : undefined;
    if (siteTypes) this.siteTypeArgs.set(site, siteTypes);
    if (name === "input" || name.startsWith("input.")) {
      if (this.declName) this.inputVarNames.set(site, this.declName);
      const d0 = args.find((a, i) => (a.name ? a.name.name === "defval" : i === 0))?.value;
      if (
        d0?.kind === "Ident" &&
        !scope.lookup(d0.name) &&
        SOURCE_NAMES.has(d0.name) &&
        (name === "input" || name === "input.source")
      ) {
        this.inputSourceNames.set(site, d0.name);
        ty = { name: "float", q: SERIES };
      } else if (name === "input.source") ty = { name: "float", q: SERIES };
      else if (ty.q > 1) ty = { name: ty.name, q: 1 };
    }
    if (name === "max_bars_back") {
      const target = allArgs[0]?.value;
      const depth = allArgs[1] ? constEval(allArgs[1].value, this.constantValue, this.version) : undefined;
      const num = typeof depth === "number" ? Math.trunc(depth) : depth;
      if (typeof num === "number") {
        const column = target?.kind === "Ident" && COLUMN_VARS.has(target.name) && !scope.lookup(target.name);
        const limit = column ? COLUMN_HISTORY_LIMIT : HISTORY_LIMIT;
        if (num > limit) throw new CheckError(maxBarsBackMessage(num, limit), allArgs[1]!.value.span);
      }
      if (target?.kind === "Ident" && typeof num === "number") {
        const f = scope.lookup(target.name);
        if (f) this.needHistory(f.v.slot, num);
      }
    }
    // a pure builtin of constants is a constant (BuiltinDef.pure): computed once here, not on every bar
    if (def.pure && typeChecked && rargs.every((a) => a === undefined || a.k === "const"))
      return {
        k: "const",
        v: def.impl(
          undefined as never,
          rargs.map((a) => a?.v),
          undefined as never,
        ),
        t: ty,
      };
    const order = writtenOrder(placement.positions, rargs.length);
    return order
      ? { k: "call", name, def, args: rargs, site, t: ty, line: e.span.line, order }
      : { k: "call", name, def, args: rargs, site, t: ty, line: e.span.line };
  }

  /** v5 accepts a repeated named argument with a warning and uses the first value (v6 refuses it). */
  private warnRepeated(name: string, args: A.Arg[], repeated: number[]): void {
    for (const i of repeated) {
      const a = args[i]!;
      this.warnings.push({
        severity: "warning",
        message: `Argument '${a.name!.name}' of '${name}' is given more than once: the first value is used (an error in v6)`,
        line: a.span.line,
        column: a.span.column,
        end_line: a.span.endLine ?? a.span.line,
        end_column: a.span.endColumn ?? a.span.column,
      });
    }
  }

  private specialResult(name: string, args: (RExpr | undefined)[], ty: PType, e: A.Call): PType {
    const a0 = args[0]?.t;
    switch (name) {
      case "na":
        if (a0 && a0.name === "bool" && this.version >= 6)
          throw new CheckError("na() cannot be used on bool values in v6 (bool is never na)", e.span);
        return { name: "bool", q: a0?.q ?? SERIES };
      case "nz":
      case "fixnan":
        if (a0 && a0.name === "bool" && this.version >= 6)
          throw new CheckError(`${name}() cannot be used on bool values in v6`, e.span);
        if (a0 && a0.name !== "na")
          return { name: a0.name, q: name === "fixnan" ? SERIES : maxQ(a0.q, args[1]?.t.q ?? 0) };
        return ty;
      case "input":
      case "input.enum":
        return a0 ? { name: a0.name === "na" ? "float" : a0.name, q: 1 } : ty;
      case "math.max":
      case "math.min":
      case "math.abs":
      case "math.sign": {
        const all = args.filter((x): x is RExpr => !!x);
        const allInt = all.every((x) => x.t.name === "int");
        return { name: allInt ? "int" : "float", q: all.reduce<Qual>((q, x) => maxQ(q, x.t.q), 0 as Qual) };
      }
      case "math.round": {
        // math.round(x) is int; math.round(x, precision) keeps a float
        const q = args.reduce<Qual>((m, x) => (x ? maxQ(m, x.t.q) : m), 0 as Qual);
        return { name: args[1] ? "float" : "int", q };
      }
      case "array.from": {
        // the elements' common type: int and float mix to float
        const known = args.filter((x): x is RExpr => !!x && x.t.name !== "na");
        let elem = known[0]?.t.name ?? "float";
        if (elem === "int" && known.some((x) => x.t.name === "float")) elem = "float";
        return { name: `array<${elem}>`, q: SERIES };
      }
      case "request.security":
      case "request.seed":
        // the requested expression's own type (tuples included)
        return args[2] ? { ...args[2].t, q: SERIES } : ty;
      case "request.security_lower_tf": {
        const x = args[2]?.t;
        if (!x) return ty;
        if (x.name === "tuple")
          return {
            name: "tuple",
            q: SERIES,
            elems: (x.elems ?? []).map((el) => ({ name: `array<${el.name}>`, q: SERIES })),
          };
        return { name: `array<${x.name}>`, q: SERIES };
      }
      case "map.keys":
        return { name: `array<${keyOf(a0?.name ?? "") ?? "float"}>`, q: SERIES };
      case "map.values":
        return { name: `array<${elemOf(a0?.name ?? "") ?? "float"}>`, q: SERIES };
      case "matrix.row":
      case "matrix.col":
        return { name: `array<${elemOf(a0?.name ?? "") ?? "float"}>`, q: SERIES };
      case "matrix.mult": {
        // matrix × array is a column vector returned as an array; matrix × matrix/scalar stays a matrix
        const a1 = args[1]?.t.name ?? "";
        if (!a1.startsWith("array<")) return ty;
        const elem = elemOf(a0?.name ?? "") === "int" && elemOf(a1) === "int" ? "int" : "float";
        return { name: `array<${elem}>`, q: SERIES };
      }
    }
    return ty;
  }

  userCall(name: string, overloads: A.FuncDecl[], args: A.Arg[], recv: RExpr | null, scope: Scope, e: A.Call): RExpr {
    const seen = new Set<string>();
    const repeated: number[] = [];
    args.forEach((a, i) => {
      if (!a.name && i > 0 && args[i - 1]!.name)
        throw new CheckError(`Positional arguments of '${name}' must come before named ones`, a.span);
      if (a.name && seen.has(a.name.name)) {
        if (this.version >= 6)
          throw new CheckError(`Argument '${a.name.name}' of '${name}' is given more than once`, a.span);
        repeated.push(i); // v5: a warning, and the first value is the one used
      }
      if (a.name) seen.add(a.name.name);
    });
    if (repeated.length) {
      this.warnRepeated(name, args, repeated);
      args = args.filter((_, i) => !repeated.includes(i));
    }
    const rargs: { name?: string; r: RExpr; site: ArgSite }[] = [];
    if (recv) {
      const node = (e.callee as A.Member).object;
      rargs.push({ r: recv, site: { node, span: node.span } });
    }
    const values = this.exprs(argValues(args), scope);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      rargs.push({ name: a.name?.name, r: values[i]!, site: { node: a.value, span: a.span } });
    }
    const fn = this.pickOverload(name, overloads, rargs, e);
    const ordered: (RExpr | undefined)[] = new Array(fn.params.length).fill(undefined);
    const sites: ArgSite[] = new Array(fn.params.length);
    const written: number[] = [];
    let pos = 0;
    for (const a of rargs) {
      const idx = a.name ? fn.params.findIndex((p) => p.name.name === a.name) : pos++;
      written.push(idx);
      if (idx < 0) throw new CheckError(`Function '${name}' has no parameter '${a.name}'`, a.site.span);
      if (ordered[idx])
        throw new CheckError(
          `Argument '${fn.params[idx]!.name.name}' of '${name}' is given more than once`,
          a.site.span,
        );
      ordered[idx] = a.r;
      sites[idx] = a.site;
    }
    fn.params.forEach((p, i) => {
      if (!ordered[i]) {
        if (!p.default) throw new CheckError(`Missing argument '${p.name.name}' in call to '${name}'`, e.span);
        ordered[i] = this.expr(p.default, this.global);
        sites[i] = { node: p.default, span: p.default.span };
      }
    });
    // v5: a number passed for a bool parameter is cast (int/float -> bool is implicit there)
    fn.params.forEach((p, i) => {
      if (
        this.version < 6 &&
        p.type &&
        !p.type.args.length &&
        !p.type.legacyArray &&
        p.type.name === "bool" &&
        isNumeric(ordered[i]!.t.name)
      )
        ordered[i] = toBool(ordered[i]!);
    });
    const inst = this.instantiate(fn, ordered as RExpr[], e, sites);
    const order = writtenOrder(written, ordered.length);
    return order
      ? { k: "ucall", inst, args: ordered as RExpr[], t: inst.body.t, order }
      : { k: "ucall", inst, args: ordered as RExpr[], t: inst.body.t };
  }

  private pickOverload(
    name: string,
    overloads: A.FuncDecl[],
    args: { name?: string; r: RExpr }[],
    e: A.Call,
  ): A.FuncDecl {
    // one declaration: argument types are checked when it is instantiated, each at its argument
    if (overloads.length === 1) return overloads[0]!;
    let best: A.FuncDecl | undefined;
    let bestScore = -1;
    for (const f of overloads) {
      if (args.length > f.params.length) continue;
      const required = f.params.filter((p) => !p.default).length;
      const named = new Set(args.filter((a) => a.name).map((a) => a.name));
      const positional = args.filter((a) => !a.name).length;
      let covered = positional;
      for (let i = positional; i < f.params.length; i++) if (named.has(f.params[i]!.name.name)) covered++;
      if (covered < required && f.params.slice(0, required).some((p, i) => i >= positional && !named.has(p.name.name)))
        continue;
      let score = 1;
      let ok = true;
      args.forEach((a, i) => {
        const p = a.name ? f.params.find((x) => x.name.name === a.name) : f.params[i];
        if (!p) {
          ok = false;
          return;
        }
        if (p.type) {
          const want = this.typeFromRef(p.type);
          if (want === a.r.t.name) score += 2;
          else if (assignable(a.r.t.name, want, this.version) || genericHead(want) === genericHead(a.r.t.name))
            score += 1;
          else ok = false;
        }
      });
      if (ok && score > bestScore) {
        best = f;
        bestScore = score;
      }
    }
    if (!best)
      throw new CheckError(
        `No overload of '${name}' takes these arguments (${args.map((a) => typeText(a.r.t)).join(", ")})`,
        e.span,
      );
    return best;
  }

  private instantiate(fn: A.FuncDecl, args: RExpr[], e: A.Call, sites: ArgSite[]): FuncInstance {
    if (this.instStack.includes(fn)) throw new CheckError(`Recursive call of '${fn.name.name}' is not allowed`, e.span);
    this.instStack.push(fn);
    const locals: VarSlot[] = [];
    this.localStack.push(locals);
    try {
      const scope = new Scope(this.global, true);
      const params: VarSlot[] = fn.params.map((p, i) => {
        const a = args[i]!;
        let name = a.t.name === "na" ? "float" : a.t.name;
        if (p.type) {
          const want = this.typeFromRef(p.type);
          if (!valueFits(a.t.name, want, this.version))
            throw argError(
              fn.name.name,
              p.name.name,
              a.t,
              shownType({ name: want, q: p.qualifier ? QUALIFIERS[p.qualifier] : SERIES }),
              sites[i] ?? { node: e, span: e.span },
            );
          name = want;
        }
        if (p.qualifier === "simple" && a.t.q > SIMPLE)
          throw new CheckError(
            `Cannot call '${fn.name.name}' with argument '${p.name.name}'=${typeText(a.t)}: expected simple ${name}`,
            e.span,
          );
        if (p.qualifier === "const" && a.t.q > CONST)
          throw new CheckError(
            `Cannot call '${fn.name.name}' with argument '${p.name.name}'=${typeText(a.t)}: expected const ${name}`,
            e.span,
          );
        // an int quotient passed in keeps its fraction in the parameter (each call site has its instance)
        const slot = this.newSlot(
          p.name.name,
          name === "int" && a.t.frac ? { name, q: a.t.q, frac: true } : { name, q: a.t.q },
          p.name.span,
        );
        scope.vars.set(p.name.name, { slot, readonly: true });
        if (!p.type) this.undetermined.markSlot(slot);
        return slot;
      });
      const saved = this.declName;
      this.declName = null;
      const body = checkBlock(this, fn.body, scope);
      this.declName = saved;
      const inst = { name: fn.name.name, params, body, locals };
      if (!this.declaredTypes.has(fn.name.span.start)) this.declaredTypes.set(fn.name.span.start, body.t);
      if (fn.params.some((p) => !p.type)) this.undetermined.markInstance(inst);
      return inst;
    } finally {
      this.localStack.pop();
      this.instStack.pop();
    }
  }

  /** Declaration statement (indicator/strategy/library): constant-evaluated arguments by name. */
  declare(e: A.Call, kind: Declaration["kind"]): void {
    if (this.declaration) throw new CheckError("A script can have only one declaration statement", e.span);
    const cat = catalogFunction(kind)!;
    const placement = placeArgs(kind, cat.fn, e.args, this.version);
    const args: Record<string, unknown> = {};
    if (placement.repeated) this.warnRepeated(kind, e.args, placement.repeated);
    e.args.forEach((a, i) => {
      if (placement.positions[i]! < 0) return; // a v5 repeated argument: the first value is used
      const pname = cat.fn.params[placement.positions[i]!]!;
      const v = constEval(
        a.value,
        (n) => this.constantValue(n) ?? this.globalConsts.get(n) ?? (catalogConstant(n) ? n : undefined),
        this.version,
      );
      if (v === undefined) throw new CheckError(`Argument '${pname}' of '${kind}' must be a constant`, a.span);
      args[pname] = v;
    });
    this.declaration = { kind, args };
    if (typeof args.max_bars_back === "number" && args.max_bars_back > HISTORY_LIMIT) {
      const a = e.args.find((_x, i) => cat.fn.params[placement.positions[i]!] === "max_bars_back")!;
      throw new CheckError(maxBarsBackMessage(args.max_bars_back, HISTORY_LIMIT), a.value.span);
    }
    if (typeof args.max_bars_back === "number" && args.max_bars_back > 0) this.maxBarsBack = args.max_bars_back;
  }
}

/** Kind of the top-level indicator()/strategy()/library() statement, if there is one. */
/** The same message at the same place: a function body's error seen again from its next call site. */
function sameError(a: CheckError, b: CheckError): boolean {
  return a.message === b.message && a.span?.start === b.span?.start && a.span?.end === b.span?.end;
}

function declarationKind(program: A.Program): Declaration["kind"] | null {
  for (const s of program.body) {
    if (s.kind !== "ExprStmt" || s.expr.kind !== "Call" || s.expr.callee.kind !== "Ident") continue;
    const n = s.expr.callee.name;
    if (n === "indicator" || n === "strategy" || n === "library") return n;
  }
  return null;
}

/** Can a method call with these arguments (the receiver is the first parameter) bind to `f` by count and names? */
function arityFits(f: A.FuncDecl, args: A.Arg[]): boolean {
  const positional = args.filter((a) => !a.name).length + 1;
  if (positional + args.filter((a) => a.name).length > f.params.length) return false;
  const named = new Set(args.filter((a) => a.name).map((a) => a.name!.name));
  if (![...named].every((n) => f.params.some((p) => p.name.name === n))) return false;
  return f.params.every((p, i) => i < positional || named.has(p.name.name) || p.default !== undefined);
}

function argValues(args: readonly A.Arg[]): A.Expr[] {
  const out: A.Expr[] = new Array(args.length);
  for (let i = 0; i < args.length; i++) out[i] = args[i]!.value;
  return out;
}

function isNumOrNa(n: string): boolean {
  return n === "int" || n === "float" || n === "na";
}

/** Builtins whose int result is whole whatever their arguments. */
const WHOLE_RESULT = new Set(["math.round", "math.floor", "math.ceil", "int", "math.sign"]);

/**
 * Parameters documented `int` in the catalogue (which keeps the first overload's wording) that also
 * take floats in another overload: the values of math.max/min/abs, ta.change/median/mode/range's
 * source, array.new_int's elements.
 */
const VALUE_PARAMS = new Set(["number", "number0", "number1", "source", "initial_value"]);

/** A parameter that takes a whole int (a length, index, count, offset), not `int/float` or a value. */
function takesOnlyInt(pname: string, type: string | undefined): boolean {
  return type !== undefined && !VALUE_PARAMS.has(pname) && /\bint\b/.test(type) && !/float|</.test(type);
}

/** An int quotient truncated to the whole number a length, index or offset needs (other values as they are). */
function wholeInt(e: RExpr): RExpr {
  return e.t.frac ? { k: "cast", to: "int", e, t: { name: "int", q: e.t.q } } : e;
}

/** The variable an argument reads, through history, fields and parentheses (`line[1]` -> line). */
function rootOf(e: A.Expr): string | undefined {
  while (e.kind === "Member" || e.kind === "Index" || e.kind === "Paren") e = e.kind === "Paren" ? e.expr : e.object;
  return e.kind === "Ident" ? e.name : undefined;
}

function rootIdent(e: A.Expr): string | undefined {
  while (e.kind === "Member") e = e.object;
  return e.kind === "Ident" ? e.name : undefined;
}

function isNameChain(e: A.Expr, scope: Scope): boolean {
  const r = rootIdent(e);
  return dottedName(e) !== undefined && r !== undefined && !scope.lookup(r);
}

function constType(v: unknown): PType {
  if (typeof v === "string") return t("string", CONST);
  if (typeof v === "boolean") return t("bool", CONST);
  if (typeof v === "number") return t(Number.isInteger(v) ? "int" : "float", CONST);
  return t("na", CONST);
}

const LEAF_KINDS = new Set(["Ident", "Number", "String", "Bool", "Na", "Color"]);

/** Every name that some assignment (`x := ...`, `x += ...`) targets, anywhere in the script. */
function collectMutations(node: unknown, out: Set<string>): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const x of node) collectMutations(x, out);
    return;
  }
  const n = node as { kind?: string; target?: A.Expr };
  if (n.kind === "Assign" && n.target?.kind === "Ident") out.add(n.target.name);
  // leaves hold no statements (about half of a script's nodes)
  if (n.kind !== undefined && LEAF_KINDS.has(n.kind)) return;
  // for..in without Object.entries' per-node arrays: this walk was a fifth of checking time
  const rec = node as Record<string, unknown>;
  for (const k in rec) {
    if (k === "span") continue;
    const v = rec[k];
    if (v && typeof v === "object") collectMutations(v, out);
  }
}

/** The evaluation order of a call's arguments when the source wrote them out of parameter order, else undefined. */
function writtenOrder(written: number[], n: number): number[] | undefined {
  if (written.every((p, i) => p === i)) return undefined;
  const order = written.filter((p) => p >= 0 && p < n);
  for (let i = 0; i < n; i++) if (!order.includes(i)) order.push(i);
  return order;
}
