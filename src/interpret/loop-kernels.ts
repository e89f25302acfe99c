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

export function extremeWindowLoop(f: LoopFrame, flow: Flow, stmts: ExtremeStmt[]): () => void {
  kernelBuilds.extreme++;
  const { N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, reeval, lines } = f;
  const m = stmts.length;
  // up to four statements written out with their parts in closure variables: a loop over arrays of
  // parts measured 3x slower per iteration (the arrays' loads); more than four go through the arrays
  const none: ExtremeStmt = { dst: 0, src: 0, col: -1, cur: 0, max: false };
  const [s0 = none, s1 = none, s2 = none, s3 = none] = stmts;
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
  const d3 = s3.dst,
    r3 = s3.src,
    k3 = s3.col,
    u3 = s3.cur,
    m3 = s3.max;
  const limit = COLUMN_HISTORY_LIMIT;
  return () => {
    const a = fK === 0 ? fC : fK === 1 ? N[fS]! : fK === 2 ? N[fS]! + fC : fK === 3 ? N[fS]! - fC : (fF() as number);
    let b = tK === 0 ? tC : tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B,
      ctx = flow.ctx,
      cols = flow.cols;
    const c0 = cols[k0] ?? EMPTY,
      c1 = cols[k1] ?? EMPTY,
      c2 = cols[k2] ?? EMPTY,
      c3 = cols[k3] ?? EMPTY;
    B.enter();
    const bi = ctx.barIndex;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      N[slot] = i;
      // the counter is the offset (never na here: the bounds are not and the step is positive);
      // every statement checks the same offset, so the first one raises the error
      if (i > limit) {
        try {
          ctx.runtimeError(historyOffsetMessage(i, limit));
        } catch (err) {
          throw atLine(err, lines[0]!);
        }
      }
      const x = bi - i;
      const inside = x >= 0 && x < bi;
      if (m > 4) {
        for (let q = 0; q < m; q++) {
          const t = stmts[q]!;
          const v = inside ? cols[t.col]![x]! : x === bi ? N[t.cur]! : NaN;
          const r = N[t.src]!;
          N[t.dst] = r !== r || v !== v ? NaN : (t.max ? v > r : v < r) ? v : r;
        }
      } else {
        let v = inside ? c0[x]! : x === bi ? N[u0]! : NaN;
        let r = N[r0]!;
        N[d0] = r !== r || v !== v ? NaN : (m0 ? v > r : v < r) ? v : r;
        if (m > 1) {
          v = inside ? c1[x]! : x === bi ? N[u1]! : NaN;
          r = N[r1]!;
          N[d1] = r !== r || v !== v ? NaN : (m1 ? v > r : v < r) ? v : r;
          if (m > 2) {
            v = inside ? c2[x]! : x === bi ? N[u2]! : NaN;
            r = N[r2]!;
            N[d2] = r !== r || v !== v ? NaN : (m2 ? v > r : v < r) ? v : r;
            if (m > 3) {
              v = inside ? c3[x]! : x === bi ? N[u3]! : NaN;
              r = N[r3]!;
              N[d3] = r !== r || v !== v ? NaN : (m3 ? v > r : v < r) ? v : r;
            }
          }
        }
      }
      if (--B.left <= 0) B.check();
      if (reeval) {
        b = tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
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
    lc = l.c,
    ls = l.s,
    lci = l.col;
  const rk = r.k,
    rc = r.c,
    rs = r.s,
    rci = r.col;
  const yk = yes.k,
    yd = yes.d,
    yc = yes.c,
    ysub = yes.sub;
  const nk = no.k,
    nd = no.d,
    nc = no.c,
    nsub = no.sub;
  const limit = COLUMN_HISTORY_LIMIT;
  const reads = lk === 2 || rk === 2;
  return () => {
    const a = fK === 0 ? fC : fK === 1 ? N[fS]! : fK === 2 ? N[fS]! + fC : fK === 3 ? N[fS]! - fC : (fF() as number);
    let b = tK === 0 ? tC : tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    const B = flow.B,
      ctx = flow.ctx;
    const lcol = flow.cols[lci] ?? EMPTY,
      rcol = flow.cols[rci] ?? EMPTY;
    B.enter();
    const bi = ctx.barIndex;
    for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
      N[slot] = i;
      if (reads && i > limit) {
        try {
          ctx.runtimeError(historyOffsetMessage(i, limit));
        } catch (err) {
          throw atLine(err, lines[0]!);
        }
      }
      const xi = bi - i;
      const inside = xi >= 0 && xi < bi;
      // (`+` on the closure's constants: a closure variable has no type in V8's optimised code, and
      // x, y or a count joining one with a double would be boxed, a heap number per iteration)
      const x = lk === 0 ? +lc : lk === 1 ? N[ls]! : inside ? lcol[xi]! : xi === bi ? N[ls]! : NaN;
      const y = rk === 0 ? +rc : rk === 1 ? N[rs]! : inside ? rcol[xi]! : xi === bi ? N[rs]! : NaN;
      const t =
        op === 0
          ? x < y
          : op === 1
            ? x <= y
            : op === 2
              ? x > y
              : op === 3
                ? x >= y
                : op === 4
                  ? x === y
                  : x !== y && x === x && y === y;
      if (t) {
        if (yk === 3) N[yd] = ysub ? N[yd]! - +yc : N[yd]! + +yc;
        else if (yk === 1) break;
      } else if (nk === 3) N[nd] = nsub ? N[nd]! - +nc : N[nd]! + +nc;
      else if (nk === 1) break;
      if (--B.left <= 0) B.check();
      if (reeval) {
        b = tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
        if (b !== b) break;
      }
    }
    B.exit();
  };
}
