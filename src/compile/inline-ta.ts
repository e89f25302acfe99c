// ta.* calls written out in the generated loop (issue 18: the generated code near the floor): the
// crosses (ta.cross / crossover / crossunder), the exponential averages (ta.ema / rma) and, with a
// length fixed for the run, the simple average (ta.sma). A call the
// whole-series passes cannot take (an argument computed bar by bar, a call under an `if` or on the
// right of a lazy `and`) goes through its impl: an argument array, the kernel lookup, a WebAssembly
// call whose state handling copies the site's record to its shadow (~30 ns a call). Written out, its
// state is a few locals of the run and a call is the kernel step's own arithmetic, the same
// operations in the same order on the same doubles (assembly/window.ts cross_next, avg.ts ema_next).
//
// Only where that is the same computation: in the plain variant's loop function (no bar is executed
// twice, so the kernel's roll-back of a repeated call on one bar never happens), at a call evaluated
// at most once per execution of the bar (not under a loop, whose iterations would call it again on one
// bar; a user function's body only where that call runs once), with the kernels present (the impl's missing-kernels error),
// which the plain variant's callers ensure by asking for the hoisting variant only then.
// (which calls: src/check/once-sites.ts inlineTaSites, for both backends; the interpreter writes out the same steps as closures,
// src/interpret/inline-ta.ts, and tests/compile/inline-ta.test.ts pins both to the impl)

import { windowResum } from "../interpret/inline-ta.js";

/** A builtin written out: its state's initial values and the code of one call. */
export interface InlineTa {
  /** Initial values of the state's run locals (in the order `text` gets them). */
  init: readonly (number | null)[];
  /** Temps one call needs. */
  temps: number;
  /** A function the step calls on its rare path, reached through the refs (`text`'s `helper`). */
  helper?: (...args: any[]) => number;
  /**
   * One call: `a` the arguments' code (int/float, in argument order: each evaluated once, in that
   * order, as the impl's argument array is filled), `t` the temps, `s` the state locals, `length` the
   * code of the impl's length check (`intArg(ctx, v, fn)`; it raises the impl's error), `helper` the
   * code of `helper`.
   */
  text(a: readonly string[], t: readonly string[], s: readonly string[], length: string, helper: string): string;
}

/** The step of a builtin written out (a name of src/check/once-sites.ts INLINE_TA_NAMES). */
export function inlineTa(name: string): InlineTa {
  const it = INLINE[name];
  if (!it) throw new Error(`internal: ${name} has no written-out step`);
  return it;
}

/** num(): a number argument as it is, anything else na (int/float arguments are numbers already). */
const num = (v: string) => `${v} = typeof ${v} === "number" ? ${v} : NaN`;

/**
 * cross_next: an na argument gives false and leaves the last pair with both values defined (NaN
 * before the first); else over is x > y after a pair with pa <= pb, under x < y after pa >= pb.
 */
function cross(kind: 0 | 1 | 2): InlineTa {
  return {
    init: [NaN, NaN],
    temps: 3,
    text([x, y], [a, b, r], [pa, pb]) {
      const over = `${a} > ${b} && ${pa} <= ${pb}`;
      const under = `${a} < ${b} && ${pa} >= ${pb}`;
      const hit = kind === 1 ? over : kind === 2 ? under : `(${over}) || (${under})`;
      return `(${a} = ${x}, ${b} = ${y}, ${num(a)}, ${num(b)}, ${a} === ${a} && ${b} === ${b} ? (${r} = ${hit}, ${pa} = ${a}, ${pb} = ${b}, ${r}) : false)`;
    },
  };
}

/**
 * ema_next (kind 0 ema, 1 rma), the length fixed by the first call (ema_new, after the impl's length
 * check): an na source gives na and leaves the state; the first `length` values are summed
 * compensated (avg.ts seedAdd, Neumaier: the sum, then its lost low-order part) and their mean is the
 * seed; then ema e + 2 / (length + 1) * (x - e), rma ((length - 1) * e + x) / length.
 */
function ema(kind: 0 | 1, fn: string): InlineTa {
  return {
    // value, values summed, the sum, its compensation, length (NaN until the first call)
    init: [NaN, 0, 0, 0, NaN],
    temps: 3,
    text([x, len], [v, l, t], [e, cnt, sum, comp, n], length) {
      const step = kind === 0 ? `${e} + (2 / (${n} + 1)) * (${v} - ${e})` : `((${n} - 1) * ${e} + ${v}) / ${n}`;
      const seed =
        `${t} = ${sum} + ${v}, ` +
        `${comp} = ${comp} + (Math.abs(${sum}) >= Math.abs(${v}) ? ${sum} - ${t} + ${v} : ${v} - ${t} + ${sum}), ` +
        `${sum} = ${t}, ++${cnt} === ${n} ? (${e} = (${sum} + ${comp}) / ${n}) : ${e}`;
      return (
        `(${v} = ${x}, ${l} = ${len}, ${n} !== ${n} ? (${n} = ${length}(ctx, ${l}, "${fn}")) : 0, ${num(v)}, ` +
        `${v} !== ${v} ? NaN : ${cnt} < ${n} ? (${seed}) : (${e} = ${step}))`
      );
    },
  };
}

/**
 * sum_new + sma_next (assembly/avg.ts sumUpdate) for a length the same on every call (once-sites.ts
 * fixedForRun: the kernel's re-sum on a changed length and its ring growth never happen): the window
 * holds the last `length` non-na values; a value pushed takes the one leaving the window (pushed
 * `length` pushes before it) out of the running sum BEFORE adding itself, and a sum left infinite or
 * na (an infinity in the window or just leaving it) is summed again from the window, oldest first; na
 * adds nothing. The mean is na until `length` values came, a sum within 1e-10 of zero reads as 0. The
 * length is read and checked on the first call, which makes the ring (length + 1 values): the impl
 * checks it on every call, but it is the same value on every call (fixedForRun: constants, inputs
 * and arithmetic of them, read without effects), so every later check would pass as the first did.
 */
function sma(): InlineTa {
  return {
    // the ring (null until the first call), its next write position, values pushed, the sum, length
    init: [null, 0, 0, 0, NaN],
    temps: 2,
    helper: windowResum,
    text([x, len], [v, l], [r, i, k, s, n], length, resum) {
      const push =
        `${r}[${i}] = ${v}, ${i} = ${i} === ${n} ? 0 : ${i} + 1, ` +
        `++${k} > ${n} ? (${s} = ${s} - ${r}[${i}]) : 0, ${s} = ${s} + ${v}, ` +
        `${s} - ${s} !== 0 ? (${s} = ${resum}(${r}, ${k}, ${n})) : 0`;
      return (
        `(${v} = ${x}, ${r} === null ? (${l} = ${len}, ${n} = ${length}(ctx, ${l}, "sma"), ${r} = new Float64Array(${n} + 1)) : 0, ` +
        `${num(v)}, ${v} === ${v} ? (${push}) : 0, ` +
        `${k} >= ${n} ? (Math.abs(${s}) <= 1e-10 ? 0 : ${s}) / ${n} : NaN)`
      );
    },
  };
}

const INLINE: Record<string, InlineTa | undefined> = {
  "ta.cross": cross(0),
  "ta.crossover": cross(1),
  "ta.crossunder": cross(2),
  "ta.ema": ema(0, "ema"),
  "ta.rma": ema(1, "rma"),
  "ta.sma": sma(),
};
