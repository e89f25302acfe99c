// The resolved program: what the checker hands to a backend. Names are resolved to slots, calls to
// builtin definitions or user-function instances, every stateful call has its call-site id, and
// every variable knows how much history it needs. Backends never look at names again.

import type { Span } from "../lang/ast.js";
import type { BuiltinDef, BuiltinVariable } from "../catalog/contract.js";
import type { PType } from "./types.js";

/** A variable's storage: one slot in the run's value array, plus a history ring when read with []. */
export interface VarSlot {
  name: string;
  slot: number;
  type: PType;
  /** History depth needed (0: none). Dynamic offsets use the script's max_bars_back. */
  histDepth: number;
  /** Index into the run's history rings, assigned after checking (-1: none). */
  hist: number;
  /**
   * True for a variable of a user-function instance: its history advances once per call (Pine's
   * per-call series of function scopes), not once per bar.
   */
  fnLocal?: boolean;
}

export type RExpr =
  | { k: "const"; v: unknown; t: PType }
  | { k: "load"; v: VarSlot; t: PType }
  /** `x[n]`: x's history (offset evaluated per bar; constant offsets are folded in `n`). */
  | { k: "hist"; v: VarSlot; off: RExpr; n: number | null; t: PType }
  /** Builtin OHLCV column read `close[n]` straight from the input columns. */
  | { k: "colHist"; col: "open" | "high" | "low" | "close" | "volume" | "time"; off: RExpr; n: number | null; t: PType }
  | { k: "bvar"; def: BuiltinVariable; site: number; t: PType }
  | { k: "unary"; op: "-" | "+" | "not"; e: RExpr; t: PType }
  | { k: "bin"; op: string; l: RExpr; r: RExpr; t: PType; intDiv?: boolean; str?: boolean }
  | { k: "and" | "or"; l: RExpr; r: RExpr; lazy: boolean; t: PType }
  | { k: "tern"; c: RExpr; a: RExpr; b: RExpr; t: PType }
  /**
   * `order` (only when it differs from 0..n-1): the indices of `args` in the order the source wrote
   * them, then the omitted ones. Pine evaluates arguments as written (side effects: `f(b = g(), a = h())`).
   */
  | {
      k: "call";
      name: string;
      def: BuiltinDef;
      args: (RExpr | undefined)[];
      site: number;
      t: PType;
      line: number;
      order?: number[];
    }
  | { k: "ucall"; inst: FuncInstance; args: RExpr[]; t: PType; order?: number[] }
  | { k: "tuple"; elems: RExpr[]; t: PType }
  | { k: "if"; cond: RExpr; then: RBlock; else: RBlock | null; t: PType }
  | { k: "switch"; subject: RExpr | null; cases: { test: RExpr | null; body: RBlock }[]; t: PType }
  | {
      k: "for";
      counter: VarSlot;
      from: RExpr;
      to: RExpr;
      step: RExpr | null;
      body: RBlock;
      reevalTo: boolean;
      t: PType;
    }
  | { k: "forin"; index: VarSlot | null; value: VarSlot; iterable: RExpr; body: RBlock; t: PType }
  | { k: "while"; cond: RExpr; body: RBlock; t: PType }
  | { k: "field"; obj: RExpr; index: number; t: PType }
  | { k: "new"; typeName: string; fields: RExpr[]; t: PType }
  | { k: "copy"; obj: RExpr; t: PType }
  /** Cast of a value to a type name (int(), float(), bool(), string(), color(), drawing casts). */
  | { k: "cast"; to: string; e: RExpr; t: PType }
  /** An expression whose values are kept in history: `(a + b)[1]`, `f()[1]`. */
  | { k: "histExpr"; e: RExpr; v: VarSlot; off: RExpr; n: number | null; t: PType };

export type RStmt =
  | { k: "decl"; v: VarSlot; mode: "plain" | "var" | "varip"; init: RExpr; once: number; line: number }
  | { k: "tdecl"; vs: (VarSlot | null)[]; init: RExpr; line: number }
  | { k: "assign"; v: VarSlot; op: string; value: RExpr; line: number; intDiv?: boolean; str?: boolean }
  | { k: "fassign"; obj: RExpr; index: number; op: string; value: RExpr; line: number; intDiv?: boolean; str?: boolean }
  | { k: "expr"; e: RExpr; line: number }
  | { k: "break"; line: number }
  | { k: "continue"; line: number };

export interface RBlock {
  stmts: RStmt[];
  /** The value of the block: its last statement when that is an expression (or if/switch/loop). */
  t: PType;
}

/** One inlined instance of a user function (one per call site: own slots, own builtin sites). */
export interface FuncInstance {
  name: string;
  params: VarSlot[];
  body: RBlock;
  /** Every variable of this instance (params, locals, hidden history slots), not of nested calls. */
  locals: VarSlot[];
}

export interface UdtInfo {
  name: string;
  /** `varip` marks a field that realtime ticks do not roll back (Objects page of the user manual). */
  fields: { name: string; type: PType; default: RExpr | null; varip?: boolean }[];
}

export interface Declaration {
  kind: "indicator" | "strategy" | "library";
  /** Declaration arguments by parameter name (constant-evaluated). */
  args: Record<string, unknown>;
}

export interface ResolvedProgram {
  version: number;
  body: RBlock;
  slots: VarSlot[];
  /** Number of stateful call sites (builtin calls and builtin variables), ids 0..siteCount-1. */
  siteCount: number;
  /** CallSite.typeArgs by call-site id (array.new<T>, matrix.new<T>, map.new<K, V>, array.from). */
  siteTypeArgs?: Map<number, string[]>;
  /** How many `var` declarations there are (ids of their once-flags). */
  onceCount: number;
  declaration: Declaration;
  /** Variable name an input call is assigned to, by call-site id (for input overrides by name). */
  inputVarNames: Map<number, string>;
  /** input()/input.source() whose default is a builtin source: its name, by call-site id. */
  inputSourceNames: Map<number, string>;
  /** Members of every user enum (input.enum overrides by name or title). */
  enums: Map<string, import("../core/values.js").EnumValue[]>;
  /** Slots of `varip` variables: not rolled back between realtime ticks. */
  varipSlots: number[];
  /** Once-flag ids of `varip` declarations (kept across tick rollback too). */
  varipOnce: number[];
  udts: Map<string, UdtInfo>;
  maxBarsBack: number;
  compileEligible: boolean;
  compileReason?: string;
  spanOf?: (n: unknown) => Span | undefined;
}
