// The typed AST of Pine Script v5/v6. Every node carries a source span; the parser produces it,
// the checker resolves it, unparse prints it back. Shapes may grow (new optional fields), but
// existing names are a contract between src/lang, src/check, src/interpret and src/compile.

/** 1-based line/column, offsets are 0-based UTF-16 indices into the source, end exclusive. */
export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

interface NodeBase {
  span: Span;
}

/** `//@function`, `//@param name text`, ... lines directly above a declaration (or the script). */
export interface DocAnnotation {
  tag: string; // "function", "param", "returns", "type", "field", "enum", "variable", "description", "strategy_alert_message"
  name?: string; // for @param / @field
  text: string;
  span: Span;
}

// ---------------------------------------------------------------- types in declarations

/** `float`, `array<float>`, `float[]` (legacy: `legacyArray` true), `map<string, int>`, `MyType`, `lib.Type`, `chart.point`. */
export interface TypeRef extends NodeBase {
  kind: "TypeRef";
  name: string;
  args: TypeRef[];
  legacyArray?: boolean;
}

export type Qualifier = "const" | "simple" | "series";

// ---------------------------------------------------------------- expressions

export interface NumberLit extends NodeBase {
  kind: "Number";
  value: number;
  isInt: boolean;
  raw: string;
}
export interface StringLit extends NodeBase {
  kind: "String";
  value: string;
  raw: string;
}
export interface BoolLit extends NodeBase {
  kind: "Bool";
  value: boolean;
}
export interface NaLit extends NodeBase {
  kind: "Na";
}
/** `#RRGGBB` or `#RRGGBBAA`; `raw` keeps the source text. */
export interface ColorLit extends NodeBase {
  kind: "Color";
  raw: string;
  r: number;
  g: number;
  b: number;
  a: number; // 0..255
}
export interface Ident extends NodeBase {
  kind: "Ident";
  name: string;
}
/** `a.b`: namespaces (ta.sma), fields (obj.x), methods (arr.push), enum members, `Type.new`. */
export interface Member extends NodeBase {
  kind: "Member";
  object: Expr;
  property: Ident;
}
export interface Arg extends NodeBase {
  kind: "Arg";
  name?: Ident;
  value: Expr;
}
export interface Call extends NodeBase {
  kind: "Call";
  callee: Expr; // Ident or Member
  typeArgs?: TypeRef[]; // array.new<float>()
  args: Arg[];
}
/** History reference `x[n]`. */
export interface Index extends NodeBase {
  kind: "Index";
  object: Expr;
  index: Expr;
}
export type UnaryOp = "-" | "+" | "not";
export interface Unary extends NodeBase {
  kind: "Unary";
  op: UnaryOp;
  operand: Expr;
}
export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "and" | "or";
export interface Binary extends NodeBase {
  kind: "Binary";
  op: BinaryOp;
  left: Expr;
  right: Expr;
}
export interface Ternary extends NodeBase {
  kind: "Ternary";
  cond: Expr;
  then: Expr;
  else: Expr;
}
/** `[a, b]` as a value (function return, if-branch result, request.security expression). */
export interface Tuple extends NodeBase {
  kind: "Tuple";
  elements: Expr[];
}
export interface Paren extends NodeBase {
  kind: "Paren";
  expr: Expr;
}

export interface Block extends NodeBase {
  kind: "Block";
  body: Stmt[];
}

/** `if` as statement or expression; `else if` chains nest as an If in `else`. */
export interface If extends NodeBase {
  kind: "If";
  cond: Expr;
  then: Block;
  else?: Block | If;
}
export interface SwitchCase extends NodeBase {
  kind: "SwitchCase";
  /** null for the default arm `=> ...` */
  test: Expr | null;
  body: Block;
}
export interface Switch extends NodeBase {
  kind: "Switch";
  subject?: Expr;
  cases: SwitchCase[];
}
export interface For extends NodeBase {
  kind: "For";
  counter: Ident;
  /** `for int i = ...` is accepted by Pine; kept when written. */
  counterType?: TypeRef;
  from: Expr;
  to: Expr;
  step?: Expr;
  body: Block;
}
/** `for x in xs`, `for [i, x] in xs`, `for [k, v] in m`. */
export interface ForIn extends NodeBase {
  kind: "ForIn";
  index?: Ident;
  value: Ident;
  iterable: Expr;
  body: Block;
}
export interface While extends NodeBase {
  kind: "While";
  cond: Expr;
  body: Block;
}

export type Expr =
  | NumberLit
  | StringLit
  | BoolLit
  | NaLit
  | ColorLit
  | Ident
  | Member
  | Call
  | Index
  | Unary
  | Binary
  | Ternary
  | Tuple
  | Paren
  | If
  | Switch
  | For
  | ForIn
  | While;

// ---------------------------------------------------------------- statements

export type DeclMode = "plain" | "var" | "varip";

/** `x = 1`, `var float x = na`, `const int N = 5`, `export const float X = 1.0`. */
export interface VarDecl extends NodeBase {
  kind: "VarDecl";
  mode: DeclMode;
  qualifier?: Qualifier;
  type?: TypeRef;
  name: Ident;
  init: Expr;
  exported?: boolean;
  doc?: DocAnnotation[];
}
/** `[a, _, c] = expr`; `_` is kept as an Ident named "_". */
export interface TupleDecl extends NodeBase {
  kind: "TupleDecl";
  names: Ident[];
  init: Expr;
}
export type AssignOp = ":=" | "+=" | "-=" | "*=" | "/=" | "%=";
/** `x := v`, `x += v`, `obj.f := v`, `obj.f += 1`. */
export interface Assign extends NodeBase {
  kind: "Assign";
  op: AssignOp;
  target: Ident | Member;
  value: Expr;
}
export interface ExprStmt extends NodeBase {
  kind: "ExprStmt";
  expr: Expr;
}
export interface Param extends NodeBase {
  kind: "Param";
  name: Ident;
  qualifier?: Qualifier;
  type?: TypeRef;
  default?: Expr;
}
/** `f(x) => expr` (body is a Block with one ExprStmt when written on one line: `singleLine` true). */
export interface FuncDecl extends NodeBase {
  kind: "FuncDecl";
  name: Ident;
  params: Param[];
  body: Block;
  singleLine: boolean;
  isMethod: boolean;
  exported: boolean;
  doc?: DocAnnotation[];
}
export interface FieldDecl extends NodeBase {
  kind: "FieldDecl";
  varip: boolean;
  type: TypeRef;
  name: Ident;
  default?: Expr;
}
export interface TypeDecl extends NodeBase {
  kind: "TypeDecl";
  name: Ident;
  fields: FieldDecl[];
  exported: boolean;
  doc?: DocAnnotation[];
}
export interface EnumMember extends NodeBase {
  kind: "EnumMember";
  name: Ident;
  title?: StringLit;
}
export interface EnumDecl extends NodeBase {
  kind: "EnumDecl";
  name: Ident;
  members: EnumMember[];
  exported: boolean;
  doc?: DocAnnotation[];
}
/** `import user/Lib/3 as L` */
export interface Import extends NodeBase {
  kind: "Import";
  namespace: string;
  name: string;
  version: number;
  alias?: Ident;
}
export interface Break extends NodeBase {
  kind: "Break";
}
export interface Continue extends NodeBase {
  kind: "Continue";
}

export type Stmt = VarDecl | TupleDecl | Assign | ExprStmt | FuncDecl | TypeDecl | EnumDecl | Import | Break | Continue;

export interface Program extends NodeBase {
  kind: "Program";
  /** from `//@version=N`; 6 when absent is NOT assumed: the parser reports a warning and uses 6. */
  version: number;
  body: Stmt[];
  /** Script-level doc annotations (`//@description`, `//@strategy_alert_message`). */
  doc: DocAnnotation[];
}

export type Node = Program | Stmt | Expr | Block | Arg | Param | FieldDecl | EnumMember | SwitchCase | TypeRef;

export type Severity = "error" | "warning" | "info";

/** The diagnostic shape of service.md 1.2: 1-based lines and columns, end exclusive. */
export interface Diagnostic {
  severity: Severity;
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** Stable code from the diagnostics catalogue, e.g. "P1001". */
  code?: string;
}

export interface ParseResult {
  ast: Program;
  diagnostics: Diagnostic[];
}
