// `col[k]` for an offset k read from a numeric slot (a loop counter) as one module function: the
// fused operators call it in place of a reader closure (a site seeing one function is always
// inlinable, its double never boxed). Compiler.columnAtSlot's reader closure reads the same way,
// written out (calling colAt from it measured slower).

import { COLUMN_HISTORY_LIMIT, historyOffsetMessage } from "../check/history-limits.js";
import type { Flow } from "./memo.js";

/**
 * Column `ci` (Flow.cols) at the offset in numeric slot `off`: na for an na offset, the history limit
 * checked, offset 0 the bar as the script sees it now, its mirrored numeric slot `cur` (RunState.setBar
 * keeps it in step with ctx), na before the first bar.
 */
export function colAt(flow: Flow, N: Float64Array, ci: number, cur: number, off: number): number {
  const k = N[off]!;
  const bi = flow.ctx.barIndex;
  // (the common case, a past bar within the limit, in few bytes: V8 inlines colAt where it is small.
  // The limit is COLUMN_HISTORY_LIMIT written as a literal, as in every in-place column read: a
  // module binding's read is 5 bytecode bytes with its hole check, counted against the inlining
  // budget of the loop inlining the read; tests/interpret/column-limit.test.ts checks the boundary)
  if (k > 0 && k <= bi && k <= 10_000) return flow.cols[ci]![bi - k]!;
  return colAtOther(flow, N, ci, cur, k);
}

/**
 * colAt's other offsets: na, over the limit (an error), the bar itself, before the first bar, negative.
 * (the bar index read here, not passed: one argument fewer to move at every in-place read's call)
 */
export function colAtOther(flow: Flow, N: Float64Array, ci: number, cur: number, k: number): number {
  const bi = flow.ctx.barIndex;
  if (k !== k) return NaN;
  if (k > COLUMN_HISTORY_LIMIT) flow.ctx.runtimeError(historyOffsetMessage(k, COLUMN_HISTORY_LIMIT));
  const i = bi - k;
  return i >= 0 && i < bi ? flow.cols[ci]![i]! : i === bi ? N[cur]! : NaN;
}
