// matrix.* builtins. PineMatrix is row-major (src/core/values.ts). Structural functions work on any
// element type; the numeric ones (det, inv, pinv, eigen*, rank, pow, mult...) treat elements as
// float. The element type of matrix.new<T> comes from `site.typeArgs[0]` when the backend gives it.

import { PineArray, PineMatrix, type PineValue } from "../../core/values.js";
import { isNumericElem, naOf, packedArray, replaceRange } from "../array/core.js";
import * as st from "../array/stats.js";
import type {
  BuiltinDef,
  BuiltinImpl,
  BuiltinTable,
  CallSite,
  ConstantTable,
  ExecContext,
  VariableTable,
} from "../types.js";
import { eigen } from "./eigen.js";
import { determinant, inverse, kron, multiply, power, pseudoInverse, rank, type Dense } from "./linalg.js";
import { budgetOf } from "../../core/budget.js";

/** TradingView's limit on matrix elements. */
export const MAX_MATRIX_ELEMENTS = 100_000;

type Mat = PineMatrix<any>;

function def(name: string, impl: BuiltinImpl): BuiltinDef {
  return { name, impl };
}

/** A builtin with positional arguments (BuiltinDef.direct: no argument array per call); impl unpacks the array. */
function direct(name: string, fn: (ctx: ExecContext, a0: any, a1: any, a2: any, a3: any) => any): BuiltinDef {
  return { name, direct: fn, impl: (ctx, a) => fn(ctx, a[0], a[1], a[2], a[3]) };
}

function mat(ctx: ExecContext, v: unknown, fn: string): Mat {
  if (!(v instanceof PineMatrix)) ctx.runtimeError(`Cannot call '${fn}' with a matrix that is na.`);
  return v as Mat;
}

const isNaNum = (v: unknown): boolean => v == null || (typeof v === "number" && v !== v);

function checkRow(ctx: ExecContext, m: Mat, r: number): number {
  const i = Math.trunc(r);
  if (!(i >= 0 && i < m.rows)) ctx.runtimeError(`Row index ${r} is out of bounds, the matrix has ${m.rows} rows.`);
  return i;
}

function checkCol(ctx: ExecContext, m: Mat, c: number): number {
  const j = Math.trunc(c);
  if (!(j >= 0 && j < m.cols))
    ctx.runtimeError(`Column index ${c} is out of bounds, the matrix has ${m.cols} columns.`);
  return j;
}

function checkSize(ctx: ExecContext, rows: number, cols: number): void {
  if (!(rows >= 0 && cols >= 0))
    ctx.runtimeError(`Invalid matrix size ${rows}x${cols}: rows and columns must be >= 0.`);
  if (rows * cols > MAX_MATRIX_ELEMENTS)
    ctx.runtimeError(`The matrix cannot contain more than ${MAX_MATRIX_ELEMENTS} elements.`);
  // building it counts against the run's time budget (src/core/budget.ts): a loop of them stays interruptible
  budgetOf(ctx).spend((rows * cols) >> 3);
}

/** A product's cost in the run's time budget (about one unit per eight multiply-adds). */
function spendProduct(ctx: ExecContext, rows: number, inner: number, cols: number): void {
  budgetOf(ctx).spend((rows * inner * cols) >> 3);
}

function requireSquare(ctx: ExecContext, m: Mat, fn: string): void {
  if (m.rows !== m.cols)
    ctx.runtimeError(`The '${fn}' function requires a square matrix; the matrix is ${m.rows}x${m.cols}.`);
}

function toDense(m: Mat): Dense {
  return { rows: m.rows, cols: m.cols, data: m.data as number[] };
}

function fromDense(d: Dense, elemType = "float"): Mat {
  return new PineMatrix<number>(elemType, d.rows, d.cols, d.data);
}

function toRows(m: Mat): number[][] {
  const out: number[][] = [];
  for (let r = 0; r < m.rows; r++) out.push((m.data as number[]).slice(r * m.cols, (r + 1) * m.cols));
  return out;
}

const numType = (a: string, b?: string): string => (a === "int" && (b === undefined || b === "int") ? "int" : "float");

function elementwise(ctx: ExecContext, a: unknown, b: unknown, fn: string, op: (x: number, y: number) => number): Mat {
  const m = mat(ctx, a, fn);
  if (b instanceof PineMatrix) {
    if (b.rows !== m.rows || b.cols !== m.cols)
      ctx.runtimeError(
        `The '${fn}' function requires matrices of the same size (${m.rows}x${m.cols} and ${b.rows}x${b.cols}).`,
      );
    const data = (m.data as number[]).map((x, i) => op(x, (b.data as number[])[i]!));
    return new PineMatrix<number>(numType(m.elemType, b.elemType), m.rows, m.cols, data);
  }
  const y = b as number;
  const data = (m.data as number[]).map((x) => op(x, y));
  return new PineMatrix<number>(numType(m.elemType, Number.isInteger(y) ? "int" : "float"), m.rows, m.cols, data);
}

function every(m: Mat, test: (v: number, r: number, c: number) => boolean): boolean {
  for (let r = 0; r < m.rows; r++)
    for (let c = 0; c < m.cols; c++) if (!test(m.data[r * m.cols + c] as number, r, c)) return false;
  return true;
}

function predicate(name: string, test: (m: Mat) => boolean): BuiltinDef {
  return def(name, (ctx, a) => test(mat(ctx, a[0], name)));
}

function reduce(name: string, fn: (values: number[]) => number): BuiltinDef {
  return def(name, (ctx, a) => fn(mat(ctx, a[0], name).data as number[]));
}

function addRow(ctx: ExecContext, m: Mat, rowArg: unknown, values: unknown): void {
  const at = isNaNum(rowArg) ? m.rows : Math.trunc(rowArg as number);
  if (!(at >= 0 && at <= m.rows))
    ctx.runtimeError(`Row index ${rowArg} is out of bounds, the matrix has ${m.rows} rows.`);
  let row: PineValue[];
  if (values instanceof PineArray) {
    row = values.values.slice();
    if (m.rows === 0 && m.cols === 0) m.cols = row.length;
    else if (row.length !== m.cols)
      ctx.runtimeError(
        `The array size (${row.length}) does not match the number of columns in the matrix (${m.cols}).`,
      );
  } else row = packedArray(m.cols, naOf(m.elemType, ctx.version), isNumericElem(m.elemType));
  checkSize(ctx, m.rows + 1, m.cols);
  replaceRange(m.data, at * m.cols, 0, row);
  m.rows++;
}

function addCol(ctx: ExecContext, m: Mat, colArg: unknown, values: unknown): void {
  const at = isNaNum(colArg) ? m.cols : Math.trunc(colArg as number);
  if (!(at >= 0 && at <= m.cols))
    ctx.runtimeError(`Column index ${colArg} is out of bounds, the matrix has ${m.cols} columns.`);
  let col: PineValue[];
  if (values instanceof PineArray) {
    col = values.values.slice();
    if (m.rows === 0 && m.cols === 0) m.rows = col.length;
    else if (col.length !== m.rows)
      ctx.runtimeError(`The array size (${col.length}) does not match the number of rows in the matrix (${m.rows}).`);
  } else col = packedArray(m.rows, naOf(m.elemType, ctx.version), isNumericElem(m.elemType));
  checkSize(ctx, m.rows, m.cols + 1);
  const next: PineValue[] = [];
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++) {
      if (c === at) next.push(col[r]!);
      next.push(m.data[r * m.cols + c]);
    }
    if (at === m.cols) next.push(col[r]!);
  }
  m.data = next;
  m.cols++;
}

export const functions: BuiltinTable = {
  "matrix.new<type>": def("matrix.new<type>", (ctx, a, site: CallSite) => {
    const rows = isNaNum(a[0]) ? 0 : Math.trunc(a[0]);
    const cols = isNaNum(a[1]) ? 0 : Math.trunc(a[1]);
    checkSize(ctx, rows, cols);
    const t =
      (site as CallSite & { typeArgs?: string[] }).typeArgs?.[0] ??
      (typeof a[2] === "number" || a[2] === undefined ? "float" : typeof a[2] === "boolean" ? "bool" : "string");
    const init = a[2] === undefined ? naOf(t, ctx.version) : a[2];
    // (packed, and doubles for numbers: `new Array(n).fill(x)` stays holey, and the reductions
    // shared with arrays (matrix.avg, array.avg) would see two elements kinds and box every double)
    return new PineMatrix<PineValue>(t, rows, cols, packedArray(rows * cols, init, isNumericElem(t)));
  }),
  "matrix.rows": direct("matrix.rows", (ctx, a0) => mat(ctx, a0, "matrix.rows").rows),
  "matrix.columns": direct("matrix.columns", (ctx, a0) => mat(ctx, a0, "matrix.columns").cols),
  "matrix.elements_count": def("matrix.elements_count", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.elements_count");
    return m.rows * m.cols;
  }),
  "matrix.get": direct("matrix.get", (ctx, a0, a1, a2) => {
    const m = mat(ctx, a0, "matrix.get");
    return m.data[checkRow(ctx, m, a1) * m.cols + checkCol(ctx, m, a2)];
  }),
  "matrix.set": {
    name: "matrix.set",
    direct: (ctx: ExecContext, a0: unknown, a1: number, a2: number, a3: unknown) => {
      const m = mat(ctx, a0, "matrix.set");
      m.data[checkRow(ctx, m, a1) * m.cols + checkCol(ctx, m, a2)] = a3;
    },
    // its own function (four arguments: the interpreter calls impl, not the shared direct() adapter)
    impl: (ctx, a) => {
      const m = mat(ctx, a[0], "matrix.set");
      m.data[checkRow(ctx, m, a[1]) * m.cols + checkCol(ctx, m, a[2])] = a[3];
    },
  },
  "matrix.row": direct("matrix.row", (ctx, a0, a1) => {
    const m = mat(ctx, a0, "matrix.row");
    const r = checkRow(ctx, m, a1);
    return new PineArray(m.elemType, m.data.slice(r * m.cols, (r + 1) * m.cols));
  }),
  "matrix.col": direct("matrix.col", (ctx, a0, a1) => {
    const m = mat(ctx, a0, "matrix.col");
    const c = checkCol(ctx, m, a1);
    const out: PineValue[] = [];
    for (let r = 0; r < m.rows; r++) out.push(m.data[r * m.cols + c]);
    return new PineArray(m.elemType, out);
  }),
  "matrix.add_row": def("matrix.add_row", (ctx, a) => addRow(ctx, mat(ctx, a[0], "matrix.add_row"), a[1], a[2])),
  "matrix.add_col": def("matrix.add_col", (ctx, a) => addCol(ctx, mat(ctx, a[0], "matrix.add_col"), a[1], a[2])),
  "matrix.remove_row": def("matrix.remove_row", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.remove_row");
    const r = checkRow(ctx, m, isNaNum(a[1]) ? m.rows - 1 : a[1]);
    const removed = m.data.splice(r * m.cols, m.cols);
    m.rows--;
    if (m.rows === 0) m.cols = 0;
    return new PineArray(m.elemType, removed);
  }),
  "matrix.remove_col": def("matrix.remove_col", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.remove_col");
    const c = checkCol(ctx, m, isNaNum(a[1]) ? m.cols - 1 : a[1]);
    const removed: PineValue[] = [];
    const next: PineValue[] = [];
    for (let r = 0; r < m.rows; r++)
      for (let k = 0; k < m.cols; k++) (k === c ? removed : next).push(m.data[r * m.cols + k]);
    m.data = next;
    m.cols--;
    if (m.cols === 0) m.rows = 0;
    return new PineArray(m.elemType, removed);
  }),
  "matrix.swap_rows": def("matrix.swap_rows", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.swap_rows");
    const r1 = checkRow(ctx, m, a[1]);
    const r2 = checkRow(ctx, m, a[2]);
    for (let c = 0; c < m.cols; c++) {
      const t = m.data[r1 * m.cols + c];
      m.data[r1 * m.cols + c] = m.data[r2 * m.cols + c];
      m.data[r2 * m.cols + c] = t;
    }
  }),
  "matrix.swap_columns": def("matrix.swap_columns", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.swap_columns");
    const c1 = checkCol(ctx, m, a[1]);
    const c2 = checkCol(ctx, m, a[2]);
    for (let r = 0; r < m.rows; r++) {
      const t = m.data[r * m.cols + c1];
      m.data[r * m.cols + c1] = m.data[r * m.cols + c2];
      m.data[r * m.cols + c2] = t;
    }
  }),
  "matrix.fill": def("matrix.fill", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.fill");
    const r0 = isNaNum(a[2]) ? 0 : Math.trunc(a[2]);
    const r1 = isNaNum(a[3]) ? m.rows : Math.trunc(a[3]);
    const c0 = isNaNum(a[4]) ? 0 : Math.trunc(a[4]);
    const c1 = isNaNum(a[5]) ? m.cols : Math.trunc(a[5]);
    if (r0 < 0 || r1 > m.rows || c0 < 0 || c1 > m.cols)
      ctx.runtimeError(`The fill range is out of bounds of the ${m.rows}x${m.cols} matrix.`);
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) m.data[r * m.cols + c] = a[1];
  }),
  "matrix.copy": def("matrix.copy", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.copy");
    return new PineMatrix(m.elemType, m.rows, m.cols, m.data.slice());
  }),
  "matrix.submatrix": def("matrix.submatrix", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.submatrix");
    const r0 = isNaNum(a[1]) ? 0 : Math.trunc(a[1]);
    const r1 = isNaNum(a[2]) ? m.rows : Math.trunc(a[2]);
    const c0 = isNaNum(a[3]) ? 0 : Math.trunc(a[3]);
    const c1 = isNaNum(a[4]) ? m.cols : Math.trunc(a[4]);
    if (r0 < 0 || r1 > m.rows || c0 < 0 || c1 > m.cols || r0 > r1 || c0 > c1) {
      ctx.runtimeError(
        `The submatrix range rows ${r0}..${r1}, columns ${c0}..${c1} is out of bounds of the ${m.rows}x${m.cols} matrix.`,
      );
    }
    const out: PineValue[] = [];
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(m.data[r * m.cols + c]);
    return new PineMatrix(m.elemType, r1 - r0, c1 - c0, out);
  }),
  "matrix.reshape": def("matrix.reshape", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.reshape");
    const rows = Math.trunc(a[1]);
    const cols = Math.trunc(a[2]);
    if (!(rows * cols === m.rows * m.cols)) {
      ctx.runtimeError(
        `Cannot reshape a ${m.rows}x${m.cols} matrix to ${rows}x${cols}: the number of elements must stay ${m.rows * m.cols}.`,
      );
    }
    m.rows = rows;
    m.cols = cols;
  }),
  "matrix.reverse": def("matrix.reverse", (ctx, a) => {
    mat(ctx, a[0], "matrix.reverse").data.reverse();
  }),
  "matrix.transpose": def("matrix.transpose", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.transpose");
    const numeric = isNumericElem(m.elemType);
    const out: PineValue[] = packedArray<PineValue>(m.rows * m.cols, numeric ? NaN : null, numeric);
    for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) out[c * m.rows + r] = m.data[r * m.cols + c];
    return new PineMatrix(m.elemType, m.cols, m.rows, out);
  }),
  "matrix.concat": def("matrix.concat", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.concat");
    const other = mat(ctx, a[1], "matrix.concat");
    if (m.rows * m.cols === 0) m.cols = other.cols;
    else if (other.cols !== m.cols)
      ctx.runtimeError(`Cannot concatenate matrices with different numbers of columns (${m.cols} and ${other.cols}).`);
    checkSize(ctx, m.rows + other.rows, m.cols);
    // (the count read once: matrix.concat(m, m) pushed onto the data it was reading until V8 aborted
    // the process on an invalid array length)
    const add = other.data;
    const n = add.length;
    for (let i = 0; i < n; i++) m.data.push(add[i]);
    m.rows += other.rows;
    return m;
  }),
  "matrix.sort": def("matrix.sort", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.sort");
    if (m.rows === 0) return;
    const c = checkCol(ctx, m, isNaNum(a[1]) ? 0 : a[1]);
    const desc = a[2] === "descending";
    const rows = toRows(m as Mat).map((row, i) => ({
      row: m.data.slice(i * m.cols, (i + 1) * m.cols),
      key: row[c]!,
      i,
    }));
    rows.sort((x, y) => {
      const xn = isNaNum(x.key);
      const yn = isNaNum(y.key);
      if (xn || yn) return xn === yn ? x.i - y.i : xn ? 1 : -1;
      const d =
        typeof x.key === "string"
          ? x.key < y.key
            ? -1
            : x.key > y.key
              ? 1
              : 0
          : (x.key as number) - (y.key as number);
      return (desc ? -d : d) || x.i - y.i;
    });
    m.data = rows.flatMap((x) => x.row);
  }),
  "matrix.sum": def("matrix.sum", (ctx, a) => elementwise(ctx, a[0], a[1], "matrix.sum", (x, y) => x + y)),
  "matrix.diff": def("matrix.diff", (ctx, a) => elementwise(ctx, a[0], a[1], "matrix.diff", (x, y) => x - y)),
  "matrix.mult": def("matrix.mult", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.mult");
    const b = a[1];
    if (b instanceof PineMatrix) {
      if (m.cols !== b.rows)
        ctx.runtimeError(
          `The number of columns of the first matrix (${m.cols}) must equal the number of rows of the second (${b.rows}).`,
        );
      checkSize(ctx, m.rows, b.cols);
      spendProduct(ctx, m.rows, m.cols, b.cols);
      return fromDense(multiply(toDense(m), toDense(b as Mat)), numType(m.elemType, b.elemType));
    }
    if (b instanceof PineArray) {
      const v = b.values as number[];
      if (v.length !== m.cols)
        ctx.runtimeError(`The array size (${v.length}) must equal the number of columns of the matrix (${m.cols}).`);
      const out = multiply(toDense(m), { rows: v.length, cols: 1, data: v });
      return new PineArray<number>(numType(m.elemType, b.elemType), out.data);
    }
    return elementwise(ctx, m, b, "matrix.mult", (x, y) => x * y);
  }),
  "matrix.pow": def("matrix.pow", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.pow");
    requireSquare(ctx, m, "matrix.pow");
    const p = Math.trunc(a[1]);
    if (!(p >= 0))
      ctx.runtimeError(`Invalid value of the 'power' argument (${a[1]}) in 'matrix.pow'. It must be >= 0.`);
    spendProduct(ctx, m.rows, m.rows, m.rows * Math.max(1, Math.ceil(Math.log2(p + 1))));
    return fromDense(power(toDense(m), p), numType(m.elemType));
  }),
  "matrix.det": def("matrix.det", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.det");
    requireSquare(ctx, m, "matrix.det");
    spendProduct(ctx, m.rows, m.rows, m.rows);
    return determinant(toDense(m));
  }),
  "matrix.inv": def("matrix.inv", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.inv");
    requireSquare(ctx, m, "matrix.inv");
    spendProduct(ctx, m.rows, m.rows, m.rows);
    const inv = inverse(toDense(m));
    return inv ? fromDense(inv) : null;
  }),
  "matrix.pinv": def("matrix.pinv", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.pinv");
    spendProduct(ctx, m.rows, m.cols, Math.max(m.rows, m.cols) * 4);
    return fromDense(pseudoInverse(toDense(m)));
  }),
  "matrix.rank": def("matrix.rank", (ctx, a) => rank(toDense(mat(ctx, a[0], "matrix.rank")))),
  "matrix.trace": def("matrix.trace", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.trace");
    requireSquare(ctx, m, "matrix.trace");
    let s = 0;
    for (let i = 0; i < m.rows; i++) s += m.data[i * m.cols + i] as number;
    return s;
  }),
  "matrix.eigenvalues": def("matrix.eigenvalues", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.eigenvalues");
    requireSquare(ctx, m, "matrix.eigenvalues");
    spendProduct(ctx, m.rows, m.rows, m.rows * 10);
    return new PineArray<number>("float", eigen(toRows(m)).values);
  }),
  "matrix.eigenvectors": def("matrix.eigenvectors", (ctx, a) => {
    const m = mat(ctx, a[0], "matrix.eigenvectors");
    requireSquare(ctx, m, "matrix.eigenvectors");
    spendProduct(ctx, m.rows, m.rows, m.rows * 10);
    const vec = eigen(toRows(m)).vectors;
    return new PineMatrix<number>("float", m.rows, m.cols, vec.flat());
  }),
  "matrix.kron": def("matrix.kron", (ctx, a) => {
    const x = mat(ctx, a[0], "matrix.kron");
    const y = mat(ctx, a[1], "matrix.kron");
    checkSize(ctx, x.rows * y.rows, x.cols * y.cols);
    return fromDense(kron(toDense(x), toDense(y)), numType(x.elemType, y.elemType));
  }),
  "matrix.avg": reduce("matrix.avg", st.avg),
  "matrix.max": reduce("matrix.max", (v) => st.nth(v, 0, true)),
  "matrix.min": reduce("matrix.min", (v) => st.nth(v, 0, false)),
  "matrix.median": reduce("matrix.median", st.median),
  "matrix.mode": reduce("matrix.mode", st.mode),
  "matrix.is_square": predicate("matrix.is_square", (m) => m.rows === m.cols),
  "matrix.is_zero": predicate("matrix.is_zero", (m) => every(m, (v) => v === 0)),
  "matrix.is_binary": predicate("matrix.is_binary", (m) => every(m, (v) => v === 0 || v === 1)),
  "matrix.is_identity": predicate(
    "matrix.is_identity",
    (m) => m.rows === m.cols && every(m, (v, r, c) => v === (r === c ? 1 : 0)),
  ),
  "matrix.is_diagonal": predicate(
    "matrix.is_diagonal",
    (m) => m.rows === m.cols && every(m, (v, r, c) => r === c || v === 0),
  ),
  "matrix.is_antidiagonal": predicate(
    "matrix.is_antidiagonal",
    (m) => m.rows === m.cols && every(m, (v, r, c) => r + c === m.cols - 1 || v === 0),
  ),
  "matrix.is_symmetric": predicate(
    "matrix.is_symmetric",
    (m) => m.rows === m.cols && every(m, (v, r, c) => v === m.data[c * m.cols + r]),
  ),
  "matrix.is_antisymmetric": predicate(
    "matrix.is_antisymmetric",
    (m) => m.rows === m.cols && every(m, (v, r, c) => v === -(m.data[c * m.cols + r] as number)),
  ),
  "matrix.is_triangular": predicate(
    "matrix.is_triangular",
    (m) => m.rows === m.cols && (every(m, (v, r, c) => c <= r || v === 0) || every(m, (v, r, c) => c >= r || v === 0)),
  ),
  "matrix.is_stochastic": predicate("matrix.is_stochastic", (m) => {
    if (m.rows === 0 || !every(m, (v) => v >= 0)) return false;
    for (let r = 0; r < m.rows; r++) {
      let s = 0;
      for (let c = 0; c < m.cols; c++) s += m.data[r * m.cols + c] as number;
      if (Math.abs(s - 1) > 1e-10) return false;
    }
    return true;
  }),
};

export const variables: VariableTable = {};
export const constants: ConstantTable = {};
