// `indicator(..., timeframe = "D", timeframe_gaps = true)`: the whole script is calculated on the
// other timeframe and its outputs are shown on the chart's bars. Reference (indicator): with
// timeframe_gaps true a value only appears on a chart bar when the higher-timeframe value becomes
// available (na elsewhere), with false the last value is repeated; the parameter is refused in scripts
// that use drawings or alert(). That is request.security of the chart's symbol at that timeframe, which
// already runs the whole script in the other context: the plot family's value arguments are wrapped in
// `request.security(syminfo.tickerid, tf, value, gaps = ...)`. The runtime applies this only when the
// timeframe is higher than the chart's (the chart's own timeframe leaves the script as it is).
import type * as A from "../lang/ast.js";
import { parseTimeframe, timeframeSeconds } from "../core/time-frames.js";
import { CheckError } from "./errors.js";
import type { ResolvedProgram } from "./ir.js";

/** Value arguments of the plot family by position and by name (the ones a script computes per bar). */
const VALUE_ARGS: Record<string, { pos: number[]; names: string[] }> = {
  plot: { pos: [0, 2], names: ["series", "color"] },
  plotshape: { pos: [0, 4], names: ["series", "color", "textcolor"] },
  plotchar: { pos: [0, 4], names: ["series", "color", "textcolor"] },
  plotarrow: { pos: [0], names: ["series"] },
  plotbar: { pos: [0, 1, 2, 3, 5], names: ["open", "high", "low", "close", "color"] },
  plotcandle: { pos: [0, 1, 2, 3, 5], names: ["open", "high", "low", "close", "color", "wickcolor", "bordercolor"] },
  bgcolor: { pos: [0], names: ["color"] },
  barcolor: { pos: [0], names: ["color"] },
  alertcondition: { pos: [0], names: ["condition"] },
};

const DRAWING_CALLS = new Set([
  "label.new",
  "line.new",
  "box.new",
  "table.new",
  "polyline.new",
  "linefill.new",
  "alert",
]);

/** The declared `indicator(timeframe = ...)` when it is higher than the chart's timeframe, else null. */
export function higherIndicatorTimeframe(prog: ResolvedProgram, chartTimeframe: string): string | null {
  if (prog.declaration.kind !== "indicator") return null;
  const tf = prog.declaration.args["timeframe"];
  if (typeof tf !== "string" || tf === "") return null;
  const own = parseTimeframe(tf);
  const chart = parseTimeframe(chartTimeframe);
  if (!own || !chart) return null;
  return timeframeSeconds(own) > timeframeSeconds(chart) ? tf : null;
}

/** The script with its outputs requested from `tf` (the indicator's `timeframe` argument). */
export function applyIndicatorTimeframe(program: A.Program, tf: string): A.Program {
  const decl = declarationCall(program);
  if (!decl) return program;
  const gapsArg = namedOrAt(decl, "timeframe_gaps", 8);
  const gaps = gapsArg?.value.kind === "Bool" ? gapsArg.value.value : true;
  const drawing = findCall(program.body, (name) => DRAWING_CALLS.has(name));
  if (drawing)
    throw new CheckError(
      `The 'timeframe' argument of indicator() cannot be used in a script that uses drawings or alert() ('${drawing.name}' here)`,
      drawing.span,
    );
  return { ...program, body: program.body.map((s) => wrapStatement(s, tf, gaps)) };
}

function declarationCall(program: A.Program): A.Call | undefined {
  for (const s of program.body) {
    if (s.kind === "ExprStmt" && s.expr.kind === "Call" && calleeName(s.expr) === "indicator") return s.expr;
  }
  return undefined;
}

function namedOrAt(call: A.Call, name: string, pos: number): A.Arg | undefined {
  const named = call.args.find((a) => a.name?.name === name);
  if (named) return named;
  const a = call.args[pos];
  return a && !a.name && call.args.slice(0, pos).every((x) => !x.name) ? a : undefined;
}

function calleeName(c: A.Call): string | undefined {
  const parts: string[] = [];
  let e: A.Expr = c.callee;
  while (e.kind === "Member") {
    parts.unshift(e.property.name);
    e = e.object;
  }
  if (e.kind !== "Ident") return undefined;
  parts.unshift(e.name);
  return parts.join(".");
}

/** The first call anywhere in the statements whose name passes `test`. */
function findCall(nodes: unknown, test: (name: string) => boolean): { name: string; span: A.Span } | undefined {
  const stack: unknown[] = [nodes];
  while (stack.length) {
    const n = stack.pop();
    if (n === null || typeof n !== "object") continue;
    if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) stack.push(n[i]);
      continue;
    }
    const node = n as { kind?: string };
    if (node.kind === "Call") {
      const name = calleeName(node as A.Call);
      if (name !== undefined && test(name)) return { name, span: (node as A.Call).span };
    }
    for (const [k, v] of Object.entries(node)) if (k !== "span" && v && typeof v === "object") stack.push(v);
  }
  return undefined;
}

/** Plot-family calls are global statements (`plot(...)` or `p = plot(...)`). */
function wrapStatement(s: A.Stmt, tf: string, gaps: boolean): A.Stmt {
  if (s.kind === "ExprStmt" && s.expr.kind === "Call") return { ...s, expr: wrapOutputCall(s.expr, tf, gaps) };
  if (s.kind === "VarDecl" && s.init.kind === "Call") return { ...s, init: wrapOutputCall(s.init, tf, gaps) };
  return s;
}

function wrapOutputCall(c: A.Call, tf: string, gaps: boolean): A.Call {
  const spec = VALUE_ARGS[calleeName(c) ?? ""];
  if (!spec) return c;
  let pos = 0;
  const args = c.args.map((a) => {
    const at = a.name ? -1 : pos++;
    const isValue = a.name ? spec.names.includes(a.name.name) : spec.pos.includes(at);
    return isValue && !isConstant(a.value) ? { ...a, value: requested(a.value, tf, gaps) } : a;
  });
  return { ...c, args };
}

/** Literals and dotted constants (color.red, shape.circle) are the same on every timeframe. */
function isConstant(e: A.Expr): boolean {
  if (e.kind === "Number" || e.kind === "String" || e.kind === "Bool" || e.kind === "Na" || e.kind === "Color")
    return true;
  return (
    e.kind === "Member" && e.object.kind === "Ident" && ["color", "shape", "location", "size"].includes(e.object.name)
  );
}

function requested(value: A.Expr, tf: string, gaps: boolean): A.Call {
  const span = value.span;
  const id = (name: string): A.Ident => ({ kind: "Ident", name, span });
  const member = (obj: string, prop: string): A.Member => ({
    kind: "Member",
    object: id(obj),
    property: id(prop),
    span,
  });
  const arg = (v: A.Expr, name?: string): A.Arg =>
    name ? { kind: "Arg", name: id(name), value: v, span } : { kind: "Arg", value: v, span };
  return {
    kind: "Call",
    callee: member("request", "security"),
    args: [
      arg(member("syminfo", "tickerid")),
      arg({ kind: "String", value: tf, raw: JSON.stringify(tf), span }),
      arg(value),
      arg(member("barmerge", gaps ? "gaps_on" : "gaps_off"), "gaps"),
    ],
    span,
  };
}
