// The Pine v5 dialect as an overlay on the generated v6 catalogue: the few signatures, constants and
// removed parameters where v5 differs from v6 (the v6 migration guide's list, values from the v5
// reference manual). The checker asks `catalogFunctionFor(name, version)` and friends instead of the v6
// tables directly, so every v5 difference lives here.

import type { Arg, Call, ColorLit, Expr, Member } from "../lang/ast.js";
import { catalogFunction } from "./index.js";
import type { CatalogFunction } from "./types.js";

/** v5 parameter types that differ from v6: plot-family `offset` is `series int` in v5 (v6 made it simple). */
const V5_TYPES: Record<string, Record<string, string>> = {
  plot: { offset: "series int" },
  plotshape: { offset: "series int" },
  plotchar: { offset: "series int" },
  plotarrow: { offset: "series int" },
  bgcolor: { offset: "series int" },
  barcolor: { offset: "series int" },
};

const patched = new Map<string, CatalogFunction>();

/** The catalogue entry of `name` as the script's Pine version documents it (v5 overrides over v6). */
export function catalogFunctionFor(name: string, version: number): { key: string; fn: CatalogFunction } | undefined {
  const base = catalogFunction(name);
  if (!base || version >= 6) return base;
  const over = V5_TYPES[base.key];
  if (!over) return base;
  let fn = patched.get(base.key);
  if (!fn) {
    fn = { ...base.fn, types: { ...base.fn.types, ...over } };
    patched.set(base.key, fn);
  }
  return { key: base.key, fn };
}

/**
 * v5 values of the colour constants that v6 changed (v5 reference manual: "Is a named constant for
 * #FF5252 color" and so on; the other fourteen are the same in both versions).
 */
export const V5_COLORS: Record<string, string> = {
  "color.red": "#FF5252",
  "color.teal": "#00897B",
  "color.yellow": "#FFEB3B",
};

/** The packed 0xRRGGBBAA value of a v5-only constant value, or undefined when v5 and v6 agree. */
export function v5Constant(name: string, version: number): number | undefined {
  if (version >= 6) return undefined;
  const hex = V5_COLORS[name];
  if (!hex) return undefined;
  return (parseInt(hex.slice(1), 16) * 256 + 255) >>> 0;
}

/**
 * v5's deprecated `transp` (0..100, removed in v6): which colour parameters it makes transparent, and
 * the colour a call gets when it gives transp but no colour (plot's documented default, color.blue).
 */
const TRANSP_TARGETS: Record<string, { params: string[]; fallback?: string }> = {
  plot: { params: ["color"], fallback: "#2962FF" },
  plotshape: { params: ["color"], fallback: "#2962FF" },
  plotchar: { params: ["color"], fallback: "#2962FF" },
  plotarrow: { params: ["colorup", "colordown"] },
  bgcolor: { params: ["color"] },
  fill: { params: ["color"] },
};

/** True when `name` takes v5's `transp` parameter. */
export function takesTransp(name: string): boolean {
  return name in TRANSP_TARGETS;
}

/**
 * A v5 call with `transp = t` rewritten to the v6 form: each colour argument `c` becomes
 * `color.new(c, t)` and `transp` is dropped, so the builtin's parameter order, the interpreter and the
 * compiler are untouched. A positional colour argument is found through the catalogue's parameter list.
 * Returns the call's arguments unchanged when there is no `transp`.
 */
export function rewriteTransp(name: string, args: Arg[]): Arg[] {
  const target = TRANSP_TARGETS[name];
  const transp = target ? args.find((a) => a.name?.name === "transp") : undefined;
  if (!target || !transp) return args;
  const cat = catalogFunction(name);
  const list = cat?.fn.lists[0] ?? cat?.fn.params ?? [];
  const rest = args.filter((a) => a !== transp);
  let positional = 0;
  let wrapped = false;
  const out = rest.map((a) => {
    const pname = a.name ? a.name.name : list[positional++];
    if (pname === undefined || !target.params.includes(pname)) return a;
    wrapped = true;
    return { ...a, value: withTransp(a.value, transp.value) };
  });
  if (!wrapped && target.fallback) {
    const span = transp.span;
    const color: Arg = {
      kind: "Arg",
      name: { kind: "Ident", name: "color", span },
      value: withTransp(hexLiteral(target.fallback, span), transp.value),
      span,
    };
    out.push(color);
  }
  return out;
}

function withTransp(color: Expr, transp: Expr): Call {
  const span = color.span;
  const callee: Member = {
    kind: "Member",
    object: { kind: "Ident", name: "color", span },
    property: { kind: "Ident", name: "new", span },
    span,
  };
  return {
    kind: "Call",
    callee,
    args: [
      { kind: "Arg", value: color, span },
      { kind: "Arg", value: transp, span: transp.span },
    ],
    span,
  };
}

function hexLiteral(hex: string, span: Arg["span"]): ColorLit {
  const v = parseInt(hex.slice(1), 16);
  return { kind: "Color", raw: hex, r: (v >> 16) & 255, g: (v >> 8) & 255, b: v & 255, a: 255, span };
}

/** Pine v4 (and earlier) builtins a converted script may still call, with their v5/v6 replacement. */
const V4_NAMES: Record<string, string> = {
  study: "indicator()",
  security: "request.security()",
  iff: "the ?: operator",
  tostring: "str.tostring()",
  tonumber: "str.tonumber()",
  sma: "ta.sma()",
  ema: "ta.ema()",
  rma: "ta.rma()",
  wma: "ta.wma()",
  rsi: "ta.rsi()",
  atr: "ta.atr()",
  crossover: "ta.crossover()",
  crossunder: "ta.crossunder()",
  cross: "ta.cross()",
  highest: "ta.highest()",
  lowest: "ta.lowest()",
  stdev: "ta.stdev()",
  change: "ta.change()",
  valuewhen: "ta.valuewhen()",
  barssince: "ta.barssince()",
  pivothigh: "ta.pivothigh()",
  pivotlow: "ta.pivotlow()",
  abs: "math.abs()",
  max: "math.max()",
  min: "math.min()",
  round: "math.round()",
  sqrt: "math.sqrt()",
  log: "math.log()",
  pow: "math.pow()",
  avg: "math.avg()",
  sum: "math.sum()",
};

/** Pine v4 `input(type = input.integer)` constants: v5 made each type its own input function. */
const V4_INPUT_TYPES: Record<string, string> = {
  "input.integer": "input.int()",
  "input.resolution": "input.timeframe()",
  "input.float": "input.float()",
  "input.bool": "input.bool()",
  "input.string": "input.string()",
  "input.source": "input.source()",
  "input.session": "input.session()",
  "input.symbol": "input.symbol()",
  "input.time": "input.time()",
  "input.color": "input.color()",
};

/** A hint for a name used as a value that is Pine v4's (`type = input.integer`), or undefined. */
export function v4ValueHint(name: string): string | undefined {
  const to = V4_INPUT_TYPES[name];
  return to
    ? `'${name}' is Pine v4's input(type = ...) form: call ${to} in //@version=5 and //@version=6 scripts`
    : undefined;
}

/** A hint for a call of a Pine v4 builtin that v5/v6 renamed or removed, or undefined. */
export function v4Hint(name: string): string | undefined {
  const to = V4_NAMES[name];
  return to ? `'${name}()' is Pine v4: use ${to} in //@version=5 and //@version=6 scripts` : undefined;
}

/** Pine v4 `input()` parameters that v5 moved to the typed input functions (input.int(), input.float(), ...). */
const V4_INPUT_PARAMS = new Set(["type", "minval", "maxval", "step", "options", "confirm"]);

/**
 * A v4-style argument of the untyped `input()` (`input(14, minval = 1)`, `input('SMA', options = [...])`):
 * TradingView v5/v6 refuse it; the error names where the parameter went. Undefined otherwise.
 */
export function v4InputArg(name: string, args: Arg[]): { message: string; span: Arg["span"] } | undefined {
  if (name !== "input") return undefined;
  const a = args.find((x) => x.name && V4_INPUT_PARAMS.has(x.name.name));
  if (!a) return undefined;
  const p = a.name!.name;
  const v = a.value;
  const typeName = v.kind === "Member" && v.object.kind === "Ident" ? `${v.object.name}.${v.property.name}` : undefined;
  const typed = p === "type" && typeName ? V4_INPUT_TYPES[typeName] : undefined;
  if (typed)
    return {
      message: `'input' has no parameter 'type' since Pine v5: 'type = ${typeName}' is ${typed}`,
      span: a.name!.span,
    };
  const where =
    p === "type"
      ? "call the typed function instead (input.int(), input.float(), input.bool(), input.string(), ...)"
      : `it is a parameter of the typed inputs (input.int(), input.float()${p === "options" ? ", input.string()" : ""}, ...)`;
  return { message: `'input' has no parameter '${p}' since Pine v5: ${where}`, span: a.name!.span };
}

/**
 * Position of `when` in the v5 parameter lists of the order functions (v5 reference:
 * `strategy.close(id, when, comment, qty, qty_percent, alert_message, immediately, disable_alert)`,
 * `strategy.entry(id, direction, qty, limit, stop, oca_name, oca_type, comment, when, alert_message, ...)`,
 * `strategy.exit(id, from_entry, qty, qty_percent, profit, limit, loss, stop, trail_price, trail_points,
 * trail_offset, oca_name, comment, when, ...)`, `strategy.close_all(when, ...)`, `strategy.cancel(id, when)`,
 * `strategy.cancel_all(when)`). v6 removed the parameter and kept the others' order.
 */
const V5_WHEN_POSITION: Record<string, number> = {
  "strategy.entry": 8,
  "strategy.order": 8,
  "strategy.exit": 13,
  "strategy.close": 1,
  "strategy.close_all": 0,
  "strategy.cancel": 1,
  "strategy.cancel_all": 0,
};

/**
 * A v5 call whose positional arguments reach `when` (`strategy.close("Long", exitCond)`): that argument
 * becomes `when = exitCond`, so the later positional ones fall on v6's list. Unchanged otherwise.
 */
export function nameV5When(name: string, args: Arg[]): Arg[] {
  const at = V5_WHEN_POSITION[name];
  if (at === undefined || args.some((a) => a.name?.name === "when")) return args;
  let positional = 0;
  return args.map((a) => {
    if (a.name) return a;
    if (positional++ !== at) return a;
    return { ...a, name: { kind: "Ident", name: "when", span: a.value.span } };
  });
}
