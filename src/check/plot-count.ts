// TradingView's plot limit: at most 64 "plot counts" a script (User Manual, Limitations, "Plot limits").
// What counts, from that page and its worked example (whose total, 56, these rules reproduce):
// - plot, plotchar, plotshape, plotarrow: one for the series; plotbar, plotcandle: four (OHLC);
// - plus one for each colour argument of the "series" form: plot `color`; plotchar/plotshape `color`
//   and `textcolor`; plotarrow `colorup` and `colordown`; plotbar `color`; plotcandle `color`,
//   `wickcolor` and `bordercolor` (a const/input/simple colour, `na` included, adds nothing);
// - alertcondition, bgcolor, barcolor: one each;
// - fill: one, only when its colour is a series (for a gradient fill, either colour);
// - hline, drawings and tables: none.
// plot* calls are global-scope only (the checker refuses them elsewhere), so every call runs once per
// bar and the count is static: the script is refused at check time, at the call that passes 64, with
// the total in the message (the manual: "the error message will display the plot count").

import type { Call, Node, Program } from "../lang/ast.js";
import { catalogFunction } from "../catalog/index.js";
import { CheckError } from "./errors.js";
import type { RExpr, ResolvedProgram } from "./ir.js";
import { SERIES } from "./types.js";
import { eachChild } from "./walk.js";

export const MAX_PLOT_COUNT = 64;

/** Per counting function: the fixed count, and the colour parameters that add one when "series". */
const COUNTS: Record<string, { base: number; colors: string[]; colorOnly?: boolean }> = {
  plot: { base: 1, colors: ["color"] },
  plotchar: { base: 1, colors: ["color", "textcolor"] },
  plotshape: { base: 1, colors: ["color", "textcolor"] },
  plotarrow: { base: 1, colors: ["colorup", "colordown"] },
  plotbar: { base: 4, colors: ["color"] },
  plotcandle: { base: 4, colors: ["color", "wickcolor", "bordercolor"] },
  alertcondition: { base: 1, colors: [] },
  bgcolor: { base: 1, colors: [] },
  barcolor: { base: 1, colors: [] },
  fill: { base: 0, colors: ["color", "top_color", "bottom_color"], colorOnly: true },
};

type PlotCall = Extract<RExpr, { k: "call" }>;

/** The plot counts one call generates. */
export function plotCountOf(call: PlotCall): number {
  const rule = COUNTS[call.name];
  if (!rule) return 0;
  const params = catalogFunction(call.name)?.fn.params ?? [];
  let series = 0;
  for (const p of rule.colors) {
    const arg = call.args[params.indexOf(p)];
    if (arg !== undefined && arg.t.q === SERIES) series++;
  }
  return rule.colorOnly ? (series > 0 ? 1 : 0) : rule.base + series;
}

/**
 * Throws the check error when the script's plot counts exceed 64: at the call that passes the limit,
 * with the script's total. `ast` gives that call's column (the resolved program keeps lines only).
 */
export function checkPlotCount(program: ResolvedProgram, ast: Program): void {
  const calls: PlotCall[] = [];
  for (const s of program.body.stmts) {
    if (s.k === "decl" || s.k === "tdecl") collect(s.init, calls);
    else if (s.k === "expr") collect(s.e, calls);
    else if (s.k === "assign" || s.k === "fassign") collect(s.value, calls);
  }
  let total = 0;
  let over: PlotCall | null = null;
  for (const c of calls) {
    total += plotCountOf(c);
    if (over === null && total > MAX_PLOT_COUNT) over = c;
  }
  if (over === null) return;
  const same = calls.filter((c) => c.line === over!.line && c.name === over!.name);
  const node = astCallsAt(ast, over.line, over.name)[same.indexOf(over)];
  throw new CheckError(
    `Too many plots: the script uses ${total} plot counts, the maximum is ${MAX_PLOT_COUNT}`,
    node?.span ?? { start: 0, end: 0, line: over.line, column: 1, endLine: over.line, endColumn: 1 },
  );
}

/** The plot-family calls in `e`, in the order the script evaluates them (arguments as written). */
function collect(e: RExpr, out: PlotCall[]): void {
  if (e.k === "call") {
    if (e.order)
      for (const i of e.order) {
        const a = e.args[i];
        if (a !== undefined) collect(a, out);
      }
    else for (const a of e.args) if (a !== undefined) collect(a, out);
    if (COUNTS[e.name]) out.push(e);
    return;
  }
  // plot* calls are global-scope only: they can sit in any expression but never in a block
  eachChild(
    e,
    (x) => void collect(x, out),
    () => undefined,
  );
}

/** The AST calls of `name` (a bare identifier callee) on `line`, in source order. */
function astCallsAt(ast: Program, line: number, name: string): Call[] {
  const out: Call[] = [];
  const visit = (n: unknown): void => {
    if (typeof n !== "object" || n === null) return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    const node = n as Node & { kind?: string };
    if (node.kind === "Call") {
      const c = node as Call;
      if (c.span.line === line && c.callee.kind === "Ident" && c.callee.name === name) out.push(c);
    }
    for (const key of Object.keys(node)) if (key !== "span") visit((node as unknown as Record<string, unknown>)[key]);
  };
  visit(ast.body);
  out.sort((a, b) => a.span.start - b.span.start);
  return out;
}
