// Whole-loop closures for common numeric loop shapes: the loop and its body's statements run in one
// closure with no call per statement (Compiler.forLoopFlat matches the shapes and falls back to the
// statement drivers for anything else). Each kernel computes exactly what the body's statements do
// one by one, in the same order, with the same na rules, errors (with the statement's line), budget
// ticks and bounds as the driver (drivers.generated.ts).

import { COLUMN_HISTORY_LIMIT, historyOffsetMessage } from "../check/history-limits.js";
import { atLine } from "./errors.js";
import type { Flow } from "./memo.js";

type Fn = () => any;

/** The column of a statement or operand that reads none (its index -1). */
const EMPTY = new Float64Array(0);

/**
 * How many loops each kernel was built for, process-wide: tests read it to tell that a loop took its
 * kernel rather than the statement drivers (both give the same results, so results alone cannot).
 */
export const kernelBuilds = { extreme: 0, countedIf: 0 };

/** A numeric `for` loop's bounds and bookkeeping, as the drivers take them (ForFlat). */
export interface LoopFrame {
  N: Float64Array;
  /** The counter's numeric slot. */
  slot: number;
  /** Bounds: k 0 constant c, 1 slot s, 2 slot s + c, 3 slot s - c, 4 closure f. */
  fK: number;
  fS: number;
  fC: number;
  fF: Fn;
  tK: number;
  tS: number;
  tC: number;
  tF: Fn;
  step: Fn | null;
  /** `to` read again after each iteration (v6, when the body may change it). */
  reeval: boolean;
  lines: number[];
}

/**
 * A window extreme: every body statement is `x := math.max(y, col[i])` (or math.min) with y a numeric
 * slot and col a bar column read at the loop counter (`mx := math.max(mx, high[i])`). Per statement,
 * as Compiler.extremeCall's store form: the history limit checked, offset 0 the bar as the script sees
 * it now (its mirrored slot), na if either side is, ties keeping the first operand.
 */
export interface ExtremeStmt {
  dst: number;
  src: number;
  /** The bar column's index in Flow.cols (memo.ts COLUMN_FIELDS). */
  col: number;
  /** The slot mirroring the column's value on the bar as the script sees it now. */
  cur: number;
  max: boolean;
}

// The kernels read the run's budget, context and bar columns through the storage's Flow once per
// loop, so that the closure captures only the storage and constants and is kept across runs (memo.ts).
//
// Why every kernel copies what it captured into locals first, and why a closure literal per statement
// count: V8 specialises a closure's optimised code to the values it captured (constants folded,
// branches on them removed) only while its literal has made one closure. Once a second program (or a
// second loop) has built a kernel from the same literal, each captured variable is a load from the
// closure's context of no known type, and each test of one is taken at run time. The locals keep them
// in registers through the loop, typed by how they are read (`| 0` a slot index or kind, `+` a double,
// `=== true` a flag: an untyped flag is tested as any value could be, an untyped index checked for a
// small integer on every use), and one literal per count leaves no count to test per iteration
// (bench/loops.pine as a second program: docs/benchmarks.md, "the interpreter's generic closures").

/** A window extreme's statement at offset x from the bar (inside: x is a past bar of the columns). */
function extremeStep(
  N: Float64Array,
  col: Float64Array,
  x: number,
  inside: boolean,
  bi: number,
  cur: number,
  src: number,
  dst: number,
  max: boolean,
): void {
  const v = inside ? col[x]! : x === bi ? N[cur]! : NaN;
  const r = N[src]!;
  N[dst] = r !== r || v !== v ? NaN : (max ? v > r : v < r) ? v : r;
}

/** The offset's history-limit error on the loop's first line (every statement checks the same offset). */
function offsetError(flow: Flow, i: number, limit: number, line: number): never {
  try {
    flow.ctx.runtimeError(historyOffsetMessage(i, limit));
  } catch (err) {
    throw atLine(err, line);
  }
  throw new Error("unreachable");
}

/**
 * A loop bound's value by its kind (LoopFrame.fK / tK), a double (`+`: the bound is a number, and the
 * counter joining an untyped value would be a tagged value through the loop).
 */
function loopBound(N: Float64Array, k: number, s: number, c: number, f: Fn): number {
  return k === 0 ? +c : k === 1 ? N[s]! : k === 2 ? N[s]! + c : k === 3 ? N[s]! - c : +(f() as number);
}

export function extremeWindowLoop(f: LoopFrame, flow: Flow, stmts: ExtremeStmt[]): () => void {
  kernelBuilds.extreme++;
  switch (stmts.length) {
    case 1:
      return extreme1(f, flow, stmts[0]!);
    case 2:
      return extreme2(f, flow, stmts[0]!, stmts[1]!);
    case 3:
      return extreme3(f, flow, stmts[0]!, stmts[1]!, stmts[2]!);
    default:
      return extremeN(f, flow, stmts);
  }
}

function extreme1(f: LoopFrame, flow: Flow, s0: ExtremeStmt): () => void {
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const d0 = s0.dst,
    r0 = s0.src,
    k0 = s0.col,
    u0 = s0.cur,
    m0 = s0.max;
  return () => {
    const n = N,
      sl = slot | 0,
      limit = +COLUMN_HISTORY_LIMIT,
      re = reeval === true;
    const dA = d0 | 0,
      rA = r0 | 0,
      uA = u0 | 0,
      mA = m0 === true;
    const a = loopBound(n, fK, fS, fC, fF);
    let b = loopBound(n, tK, tS, tC, tF);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B;
    const cA = flow.cols[k0] ?? EMPTY;
    B.enter();
    const bi = flow.ctx.barIndex | 0;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      n[sl] = i;
      if (i > limit) offsetError(flow, i, limit, lines[0]!);
      const x = bi - i;
      const inside = x >= 0 && x < bi;
      extremeStep(n, cA, x, inside, bi, uA, rA, dA, mA);
      if (--B.left <= 0) B.check();
      if (re) {
        b = loopBound(n, tK, tS, tC, tF);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}

function extreme2(f: LoopFrame, flow: Flow, s0: ExtremeStmt, s1: ExtremeStmt): () => void {
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const d0 = s0.dst,
    r0 = s0.src,
    k0 = s0.col,
    u0 = s0.cur,
    m0 = s0.max;
  const d1 = s1.dst,
    r1 = s1.src,
    k1 = s1.col,
    u1 = s1.cur,
    m1 = s1.max;
  return () => {
    const n = N,
      sl = slot | 0,
      limit = +COLUMN_HISTORY_LIMIT,
      re = reeval === true;
    const dA = d0 | 0,
      rA = r0 | 0,
      uA = u0 | 0,
      mA = m0 === true;
    const dB = d1 | 0,
      rB = r1 | 0,
      uB = u1 | 0,
      mB = m1 === true;
    const a = loopBound(n, fK, fS, fC, fF);
    let b = loopBound(n, tK, tS, tC, tF);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B;
    const cA = flow.cols[k0] ?? EMPTY,
      cB = flow.cols[k1] ?? EMPTY;
    B.enter();
    const bi = flow.ctx.barIndex | 0;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      n[sl] = i;
      if (i > limit) offsetError(flow, i, limit, lines[0]!);
      const x = bi - i;
      const inside = x >= 0 && x < bi;
      extremeStep(n, cA, x, inside, bi, uA, rA, dA, mA);
      extremeStep(n, cB, x, inside, bi, uB, rB, dB, mB);
      if (--B.left <= 0) B.check();
      if (re) {
        b = loopBound(n, tK, tS, tC, tF);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}

function extreme3(f: LoopFrame, flow: Flow, s0: ExtremeStmt, s1: ExtremeStmt, s2: ExtremeStmt): () => void {
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const d0 = s0.dst,
    r0 = s0.src,
    k0 = s0.col,
    u0 = s0.cur,
    m0 = s0.max;
  const d1 = s1.dst,
    r1 = s1.src,
    k1 = s1.col,
    u1 = s1.cur,
    m1 = s1.max;
  const d2 = s2.dst,
    r2 = s2.src,
    k2 = s2.col,
    u2 = s2.cur,
    m2 = s2.max;
  return () => {
    const n = N,
      sl = slot | 0,
      limit = +COLUMN_HISTORY_LIMIT,
      re = reeval === true;
    const dA = d0 | 0,
      rA = r0 | 0,
      uA = u0 | 0,
      mA = m0 === true;
    const dB = d1 | 0,
      rB = r1 | 0,
      uB = u1 | 0,
      mB = m1 === true;
    const dC = d2 | 0,
      rC = r2 | 0,
      uC = u2 | 0,
      mC = m2 === true;
    const a = loopBound(n, fK, fS, fC, fF);
    let b = loopBound(n, tK, tS, tC, tF);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B;
    const cA = flow.cols[k0] ?? EMPTY,
      cB = flow.cols[k1] ?? EMPTY,
      cC = flow.cols[k2] ?? EMPTY;
    B.enter();
    const bi = flow.ctx.barIndex | 0;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      n[sl] = i;
      if (i > limit) offsetError(flow, i, limit, lines[0]!);
      const x = bi - i;
      const inside = x >= 0 && x < bi;
      extremeStep(n, cA, x, inside, bi, uA, rA, dA, mA);
      extremeStep(n, cB, x, inside, bi, uB, rB, dB, mB);
      extremeStep(n, cC, x, inside, bi, uC, rC, dC, mC);
      if (--B.left <= 0) B.check();
      if (re) {
        b = loopBound(n, tK, tS, tC, tF);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}

/** Four or more statements: their parts read from arrays (a loop over them, no count to test). */
function extremeN(f: LoopFrame, flow: Flow, stmts: ExtremeStmt[]): () => void {
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const dst = Int32Array.from(stmts, (t) => t.dst),
    src = Int32Array.from(stmts, (t) => t.src),
    cur = Int32Array.from(stmts, (t) => t.cur),
    max = Uint8Array.from(stmts, (t) => (t.max ? 1 : 0));
  const colIdx = stmts.map((t) => t.col);
  const cs: Float64Array[] = stmts.map(() => EMPTY);
  return () => {
    const n = N,
      sl = slot | 0,
      limit = +COLUMN_HISTORY_LIMIT,
      re = reeval === true,
      m = dst.length;
    const a = loopBound(n, fK, fS, fC, fF);
    let b = loopBound(n, tK, tS, tC, tF);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B;
    for (let q = 0; q < m; q++) cs[q] = flow.cols[colIdx[q]!] ?? EMPTY;
    B.enter();
    const bi = flow.ctx.barIndex | 0;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      n[sl] = i;
      if (i > limit) offsetError(flow, i, limit, lines[0]!);
      const x = bi - i;
      const inside = x >= 0 && x < bi;
      for (let q = 0; q < m; q++) extremeStep(n, cs[q]!, x, inside, bi, cur[q]!, src[q]!, dst[q]!, max[q] === 1);
      if (--B.left <= 0) B.check();
      if (re) {
        b = loopBound(n, tK, tS, tC, tF);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}

/**
 * A numeric operand read in a kernel: k 0 the constant c, 1 the numeric slot s, 2 the bar column col
 * at the loop counter (offset 0 the bar as the script sees it now, its mirrored slot s).
 */
export interface KernelOperand {
  k: number;
  c: number;
  s: number;
  /** k 2: the bar column's index in Flow.cols (memo.ts COLUMN_FIELDS). */
  col: number;
}

/** A branch of a counted if: k 0 nothing, 1 break, 2 continue, 3 `N[d] += c` (`-=` when sub). */
export interface CountBranch {
  k: number;
  d: number;
  c: number;
  sub: boolean;
}

/**
 * A counted if: the body is one `if` comparing two operands (constants, numeric variables, bar
 * columns at the counter: `close[i] > open[i]`) whose branches add a constant to a numeric variable,
 * break, continue or do nothing (`if close[i] > open[i] \n ups += 1 \n else \n continue`). As the
 * driver runs it (Compiler.ifFlat in forFlat): operands left then right, the history limit checked
 * for a column operand (the error on the if's line), na compares false (`!=` too), a break leaves
 * before the budget tick, a continue does not.
 */
export function countedIfLoop(
  f: LoopFrame,
  flow: Flow,
  l: KernelOperand,
  r: KernelOperand,
  op: number,
  yes: CountBranch,
  no: CountBranch,
): () => void {
  kernelBuilds.countedIf++;
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const lk = l.k,
    lc = +l.c,
    ls = l.s,
    lci = l.col;
  const rk = r.k,
    rc = +r.c,
    rs = r.s,
    rci = r.col;
  const yk = yes.k,
    yd = yes.d,
    yc = +yes.c,
    ysub = yes.sub;
  const nk = no.k,
    nd = no.d,
    nc = +no.c,
    nsub = no.sub;
  const reads = lk === 2 || rk === 2;
  return () => {
    // (locals: see extremeWindowLoop's note above)
    const n = N,
      sl = slot | 0,
      limit = +COLUMN_HISTORY_LIMIT,
      re = reeval === true,
      rd = reads === true,
      o = op | 0;
    const lK = lk | 0,
      lC = +lc,
      lS = ls | 0,
      rK = rk | 0,
      rC = +rc,
      rS = rs | 0;
    const yK = yk | 0,
      yD = yd | 0,
      yC = ysub ? -yc : +yc,
      nK = nk | 0,
      nD = nd | 0,
      nC = nsub ? -nc : +nc;
    const a = loopBound(n, fK, fS, fC, fF);
    let b = loopBound(n, tK, tS, tC, tF);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B;
    const lcol = flow.cols[lci] ?? EMPTY,
      rcol = flow.cols[rci] ?? EMPTY;
    B.enter();
    const bi = flow.ctx.barIndex | 0;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      n[sl] = i;
      if (rd && i > limit) offsetError(flow, i, limit, lines[0]!);
      const xi = bi - i;
      const inside = xi >= 0 && xi < bi;
      const x = lK === 0 ? lC : lK === 1 ? n[lS]! : inside ? lcol[xi]! : xi === bi ? n[lS]! : NaN;
      const y = rK === 0 ? rC : rK === 1 ? n[rS]! : inside ? rcol[xi]! : xi === bi ? n[rS]! : NaN;
      const t =
        o === 0
          ? x < y
          : o === 1
            ? x <= y
            : o === 2
              ? x > y
              : o === 3
                ? x >= y
                : o === 4
                  ? x === y
                  : x !== y && x === x && y === y;
      if (t) {
        if (yK === 3) n[yD] = n[yD]! + yC;
        else if (yK === 1) break;
      } else if (nK === 3) n[nD] = n[nD]! + nC;
      else if (nK === 1) break;
      if (--B.left <= 0) B.check();
      if (re) {
        b = loopBound(n, tK, tS, tC, tF);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}
