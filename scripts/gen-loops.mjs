#!/usr/bin/env node
// Generates src/interpret/drivers.generated.ts: COPIES textually identical copies of the interpreter's
// statement-level drivers (a numeric `for`, a one-statement-branch `if`). Why copies: V8 keeps call
// feedback per call site of a function's code, so one driver shared by every loop of a program sees
// every loop's body statements at its `f0()` call and inlines none of them; a program's loops taking
// different copies (the compiler's forCopy / ifCopy counters) each see one body, which V8 inlines into the loop (bench/loops.pine
// interpreted 205 -> 170 ms CPU with the `for` driver alone). The program's top-level statements get
// call sites of their own the same way (seqFlat). Identical text, so identical semantics;
// `new Function` is not allowed in workerd or under strict CSP, hence a generator.
// Usage: node scripts/gen-loops.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const COPIES = 8;

// A loop body's statements written out, each called from a call site of its own, up to FOR_OUT
// (the rest from one loop): one site calling every statement of a long body is megamorphic, and V8
// inlines none of them (a 14-statement body: r2_linreg_channel_pearson).
const FOR_OUT = 12;

/** Nested calls of f0..f(out-1) at indent `ind`, `v = ` before each when `assign`, a ctl check between them when `check`; then `rest`. */
const chain = (out, ind, check, assign, rest) => {
  let s = "";
  let pad = ind;
  for (let k = 0; k < out; k++) {
    const cond = k === 0 ? null : check ? `n > ${k} && flow.ctl === 0` : `n > ${k}`;
    if (cond) {
      s += `${pad}if (${cond}) {\n`;
      pad += "  ";
    }
    s += `${pad}j = ${k};\n${pad}${assign ? "v = " : ""}f${k}();\n`;
  }
  s += rest(pad);
  for (let k = 1; k < out; k++) {
    pad = pad.slice(2);
    s += `${pad}}\n`;
  }
  return s;
};
const restLoop = (out, check, assign) => (pad) =>
  `${pad}if (n > ${out}${check ? " && flow.ctl === 0" : ""}) {\n${pad}  for (j = ${out}; j < n; j++) {\n${pad}    ${assign ? "v = " : ""}fns[j]!();\n${check ? `${pad}    if (flow.ctl !== 0) break;\n` : ""}${pad}  }\n${pad}}\n`;
const consts = (out) => [...Array(out).keys()].map((k) => `    f${k} = fns[${k}] ?? noop`).join(",\n");
/** A loop iteration's end: a break/continue the body raised (flow.ctl; `guard` first when given), then the budget tick. */
const ctlBreak = (pad, guard = "") =>
  `${pad}if (${guard}flow.ctl !== 0) {\n${pad}  const c = flow.ctl;\n${pad}  flow.ctl = 0;\n${pad}  if (c === 1) break;\n${pad}}\n`;
const tick = (pad) => `${pad}if (--B.left <= 0) B.check();\n`;

const forDriver = (k) => `
function forFlat${k}(p: ForFlat): () => void {
  const { flow, N, slot, fK, fS, fC, fF, tK, tS, tC, tF, step, fns, lines, reeval, ctl } = p;
  const n = fns.length;
  const ${consts(FOR_OUT).trimStart()};
  return () => {
    // (the run's budget, read per loop: a driver is kept across runs, memo.ts)
    const B = flow.B;
    const a = fK === 0 ? fC : fK === 1 ? N[fS]! : fK === 2 ? N[fS]! + fC : fK === 3 ? N[fS]! - fC : (fF() as number);
    let b = tK === 0 ? tC : tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
    if (a !== a || b !== b) return;
    const s = step ? Math.abs(step() as number) : 1;
    if (!(s > 0)) return;
    const up = a <= b;
    B.enter();
    let j = -1;
    try {
      for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
        N[slot] = i;
        if (!ctl) {
${chain(FOR_OUT, "          ", false, false, restLoop(FOR_OUT, false, false))}        } else {
${chain(FOR_OUT, "          ", true, false, restLoop(FOR_OUT, true, false))}        }
        j = -1;
${ctlBreak("        ", "ctl && ")}${tick("        ")}        if (reeval) {
          b = tK === 1 ? N[tS]! : tK === 2 ? N[tS]! + tC : tK === 3 ? N[tS]! - tC : (tF() as number);
          if (b !== b) break;
        }
      }
    } catch (err) {
      throw j < 0 ? err : atLine(err, lines[j]!);
    }
    B.exit();
  };
}
`;

// A statement-level `for ... in` (Compiler.forInVoid): an array's elements through the body's statements
// written out, as the `for` driver; a matrix's rows and a map's entries through the body's block.
const forInDriver = (k) => `
function forInFlat${k}(p: ForInFlat): () => void {
  const { flow, it, vv, vs, iv, is, fns, lines, body } = p;
  const n = fns.length;
  const ${consts(FOR_OUT).trimStart()};
  return () => {
    const coll = it();
    if (coll === null || coll === undefined) return;
    // (the run's budget and context, read per loop: a driver is kept across runs, memo.ts)
    const B = flow.B;
    B.enter();
    if (coll instanceof PineArray) {
      let j = -1;
      try {
        for (let i = 0; i < coll.values.length; i++) {
          if (is >= 0) iv[is] = i;
          vv[vs] = coll.values[i];
${chain(FOR_OUT, "          ", true, false, restLoop(FOR_OUT, true, false))}          j = -1;
${ctlBreak("          ")}${tick("          ")}        }
      } catch (err) {
        throw j < 0 ? err : atLine(err, lines[j]!);
      }
    } else if (coll instanceof PineMatrix) {
      for (let r = 0; r < coll.rows; r++) {
        if (is >= 0) iv[is] = r;
        vv[vs] = new PineArray(coll.elemType, coll.data.slice(r * coll.cols, (r + 1) * coll.cols));
        body();
${ctlBreak("        ")}        B.spend(1 + (coll.cols >> 3));
      }
    } else if (coll instanceof PineMap) {
      for (const [key, x] of coll.map) {
        if (is >= 0) iv[is] = key;
        vv[vs] = x;
        body();
${ctlBreak("        ")}${tick("        ")}      }
    } else {
      B.exit();
      flow.ctx.runtimeError("Cannot iterate over this value");
    }
    B.exit();
  };
}
`;

// A statement-level `while` (Compiler.whileVoid): its condition and up to FOR_OUT body statements each
// from a call site of its own, as the `for` driver. One closure for every `while` of a program made its
// `cond()` and `f0()` sites see every loop's condition and body (r4_while_lookback_scan).
const whileDriver = (k) => `
function whileFlat${k}(flow: Flow, cond: Fn, fns: Fn[], lines: number[]): () => void {
  const n = fns.length;
  const ${consts(FOR_OUT).trimStart()};
  return () => {
    // (the run's budget, read per loop: a driver is kept across runs, memo.ts)
    const B = flow.B;
    B.enter();
    let j = -1;
    try {
      while (cond()) {
${chain(FOR_OUT, "        ", true, false, restLoop(FOR_OUT, true, false))}        j = -1;
${ctlBreak("        ")}${tick("        ")}      }
    } catch (err) {
      throw j < 0 ? err : atLine(err, lines[j]!);
    }
    B.exit();
  };
}
`;

// A nested block of two or more statements (Compiler.block / voidBlock): each statement from a call
// site of its own, up to BLOCK_OUT, as the loop bodies above; stops after a statement that raised
// break/continue; its value is the last statement's run; an error leaving statement j gets lines[j].
const BLOCK_OUT = 12;
const blockDriver = (k) => `
function blockFlat${k}(flow: Flow, fns: Fn[], lines: number[]): Fn {
  const n = fns.length;
  const ${consts(BLOCK_OUT).trimStart()};
  return () => {
    let v: any;
    let j = 0;
    try {
${chain(BLOCK_OUT, "      ", true, true, restLoop(BLOCK_OUT, true, true))}    } catch (err) {
      throw atLine(err, lines[j]!);
    }
    return v;
  };
}
`;

// An \`if\` of one statement per branch (Compiler.ifFlat): a closure per condition kind (a bool slot,
// each comparison operator, a closure) and with or without an else branch, so the closure a loop's
// driver inlines holds only its own paths: V8 counts every inlined function's whole bytecode against
// one budget per optimised function, and the one closure for every kind (140 bytes) used it up in
// loop bodies of a few ifs, leaving later reads uninlined (their doubles boxed).
// (op 6: na(x), the one operand l: \`if na(high[j])\` without the na closure between)
const CMP = ["x < y", "x <= y", "x > y", "x >= y", "x === y", "x !== y && x === x && y === y", "x !== x"];
const ifBranch = (b, ind) => `${ind}if (${b}k === 0) return;
${ind}if (${b}k !== 3) {
${ind}  flow.ctl = ${b}k;
${ind}  return;
${ind}}
${ind}try {
${ind}  ${b}f();
${ind}} catch (err) {
${ind}  throw atLine(err, ${b}line);
${ind}}
`;
// (a then branch of a statement and then break/continue, tk 4/5: the flag set after the statement
// unless the statement raised its own, as a block of the two stops after a statement that raised it)
const ifThenCtl = (ind) => `${ind}try {
${ind}  tf();
${ind}} catch (err) {
${ind}  throw atLine(err, tline);
${ind}}
${ind}if (flow.ctl === 0) flow.ctl = tk - 3;
`;
const ifBody = (cond, withElse, pre = "", tail = false) =>
  tail
    ? `() => {
${pre}      if (!(${cond})) return;
${ifThenCtl("      ")}    }`
    : withElse
      ? `() => {
${pre}      if (${cond}) {
${ifBranch("t", "        ")}      } else {
${ifBranch("e", "        ")}      }
    }`
      : `() => {
${pre}      if (!(${cond})) return;
${ifBranch("t", "      ")}    }`;
const ifDriver = (k) => {
  let cases = "";
  for (const [withElse, tail] of [
    [false, true],
    [false, false],
    [true, false],
  ]) {
    const e = (withElse ? "ek !== 0" : "ek === 0") + (tail ? " && tk > 3" : "");
    cases += `  if (ck === 0 && ${e}) return ${ifBody("cv[cs]", withElse, "", tail)};\n`;
    cases += `  if (ck === 2 && ${e}) return ${ifBody("c()", withElse, "", tail)};\n`;
    CMP.forEach((cmp, op) => {
      const pre =
        op === 6 ? "      const x = l() as number;\n" : "      const x = l() as number,\n        y = r() as number;\n";
      cases += `  if (ck === 1 && op === ${op} && ${e})\n    return ${ifBody(cmp, withElse, pre, tail)};\n`;
    });
  }
  return `
function ifFlat${k}(p: IfFlat): () => void {
  const { flow, ck, cs, cv, op, l, r, c, tk, tf, tline, ek, ef, eline } = p;
  void tk; void tf; void tline; void ef; void eline;
${cases}  throw new Error("internal: if kind");
}
`;
};

/**
 * A run of statements in order, the first `out` called each from a call site of its own (so V8 can
 * inline each into the run's closure), with `rest` the others from one loop; an error leaving
 * statement i gets lines[i].
 */
const statementRun = (head, out, rest) => {
  let calls = "";
  for (let k = 0; k < out; k++) calls += `      if (n > ${k}) {\n        i = ${k};\n        f${k}();\n`;
  if (rest) calls += `        for (i = ${out}; i < n; i++) fns[i]!();\n`;
  for (let k = 0; k < out; k++) calls += "      }\n";
  return `
${head}(fns: Fn[], lines: number[]): Fn {
  const n = fns.length;
${[...Array(out).keys()].map((k) => `  const f${k} = fns[${k}] ?? noop;`).join("\n")}
  return () => {
    let i = 0;
    try {
${calls}    } catch (err) {
      throw atLine(err, lines[i]!);
    }
    return 0;
  };
}
`;
};

// The program's top-level statements: the first SEQ_OUT called each from a call site of its own (so
// V8 can inline each into the bar's closure), the rest from one loop.
const SEQ_OUT = 16;
const seqDriver = () =>
  statementRun(
    "/** The top-level statements in order; an error leaving statement i gets lines[i] (Compiler.main). */\nexport function seqFlat",
    SEQ_OUT,
    true,
  );

// A run of top-level statements (Compiler.main's chunks): up to CHUNK_OUT called each from a call site
// of its own. A long program's chunks are called from one loop, a call site V8 does not inline with
// five or more targets, so each chunk is optimised on its own with its statements inlined into it:
// inlined into one function, a long program's statements run out of V8's inlining budget for it.
const CHUNK_OUT = 6;
const chunkDriver = (c) => statementRun(`function chunkFlat${c}`, CHUNK_OUT, false);
// Chunks have copies of their own, more than the other drivers (small: a chunk driver is 30 lines):
// each program takes the next ones in turn (Compiler.chunked), so that the programs a process runs
// do not share a chunk's call sites until CHUNK_COPIES chunks have been handed out. A chunk copy two
// programs share sees both programs' statements and inlines neither's (bench/swing_state.pine run after
// nine other programs: docs/benchmarks.md, "the interpreter's generic closures").
const CHUNK_COPIES = 64;

const range = [...Array(COPIES).keys()];
let out = `// GENERATED by scripts/gen-loops.mjs: do not edit by hand.
// ${COPIES} identical copies of each statement-level driver; a program's drivers take them in turn
// (the compiler's forCopy / ifCopy / whileCopy counters), so each copy's calls to its body statements see one target, which V8 inlines.
// See the generator's header for why; the drivers' semantics are documented on Compiler.forLoopFlat
// and Compiler.ifFlat.
/* eslint-disable */
import { PineArray, PineMap, PineMatrix } from "../core/values.js";
import { atLine } from "./errors.js";
import type { LoopFrame } from "./loop-kernels.js";
import type { Flow } from "./memo.js";

type Fn = () => any;
const noop: Fn = () => NaN;

/** How many copies of each driver there are. */
export const DRIVER_COPIES = ${COPIES};

/** A statement-level numeric \`for\` (Compiler.forLoopFlat): a loop frame, its body and its budget. */
export interface ForFlat extends LoopFrame {
  /** The break/continue flag (0 none, 1 break, 2 continue) and the run's budget (LoopFrame.B unread). */
  flow: Flow;
  /** The body's statements (their lines in LoopFrame.lines). */
  fns: Fn[];
  /** The body may raise break/continue (else the flag is not read between its statements). */
  ctl: boolean;
}

/** A statement-level \`for ... in\` (Compiler.forInVoid). */
export interface ForInFlat {
  flow: Flow;
  /** The iterable. */
  it: Fn;
  /** The value variable's store and slot; the index variable's (is -1: none). */
  vv: unknown[] | Float64Array;
  vs: number;
  iv: unknown[] | Float64Array;
  is: number;
  /** The body's statements and their lines (an array's elements). */
  fns: Fn[];
  lines: number[];
  /** The body as one block (a matrix's rows, a map's entries). */
  body: () => void;
}

/**
 * A statement-level \`if\` with one-statement branches (Compiler.ifFlat). Condition: ck 0 a bool slot
 * (cv[cs]), 1 a numeric comparison (operator op of COMPARE_OPS on l() and r()), 2 a closure c. A
 * branch: k 0 nothing, 1 break, 2 continue, 3 its statement f (an error leaving it gets line), 4 / 5
 * (the then branch, no else) its statement f and then break / continue.
 */
export interface IfFlat {
  flow: Flow;
  ck: number;
  cs: number;
  cv: ArrayLike<unknown>;
  op: number;
  l: Fn;
  r: Fn;
  c: Fn;
  tk: number;
  tf: Fn;
  tline: number;
  ek: number;
  ef: Fn;
  eline: number;
}
`;
for (const k of range) out += forDriver(k);
for (const k of range) out += ifDriver(k);
for (const k of range) out += blockDriver(k);
for (const k of range) out += whileDriver(k);
for (const k of range) out += forInDriver(k);
out += seqDriver();
for (let k = 0; k < CHUNK_COPIES; k++) out += chunkDriver(k);
out += `
/** How many statements a chunk (chunkFlat) takes at most. */
export const CHUNK_SIZE = ${CHUNK_OUT};
/** How many copies of the chunk driver there are. */
export const CHUNK_COPIES = ${CHUNK_COPIES};
export const chunkFlat: ((fns: Fn[], lines: number[]) => Fn)[] = [${[...Array(CHUNK_COPIES).keys()].map((k) => `chunkFlat${k}`).join(", ")}];
export const forFlat: ((p: ForFlat) => () => void)[] = [${range.map((k) => `forFlat${k}`).join(", ")}];
export const ifFlat: ((p: IfFlat) => () => void)[] = [${range.map((k) => `ifFlat${k}`).join(", ")}];
export const whileFlat: ((flow: Flow, cond: Fn, fns: Fn[], lines: number[]) => () => void)[] = [${range.map((k) => `whileFlat${k}`).join(", ")}];
export const forInFlat: ((p: ForInFlat) => () => void)[] = [${range.map((k) => `forInFlat${k}`).join(", ")}];
export const blockFlat: ((flow: Flow, fns: Fn[], lines: number[]) => Fn)[] = [${range.map((k) => `blockFlat${k}`).join(", ")}];
`;
const target = resolve(root, "src/interpret/drivers.generated.ts");
// --check: the committed file is what this generator writes (tests/interpret/generated.test.ts)
if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== out) {
    console.error(
      "drivers: src/interpret/drivers.generated.ts differs from the generator's output: run node scripts/gen-loops.mjs",
    );
    process.exit(1);
  }
  console.log("drivers: up to date");
} else {
  writeFileSync(target, out);
  console.log("drivers: written");
}
