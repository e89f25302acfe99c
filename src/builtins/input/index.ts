// input() and the 13 input.* kinds. Each call site records its declaration (result.inputs) on its
// first call and resolves its value once: the override of the run (type-checked, clamped to
// minval/maxval, checked against options) or the default. input.source returns the chosen source
// series on every bar.
import { CATALOG } from "../../catalog/index.js";
import { COMPOSITE_PRICES } from "../../core/prices.js";
import type { InputRecord } from "../../core/result.js";
import { colorToString, EnumValue, packColor } from "../../core/values.js";
import type { BuiltinImpl, BuiltinTable, CallSite, ExecContext } from "../types.js";
import { InputOverrideError, InputStore } from "./store.js";

export { InputOverrideError, InputStore } from "./store.js";

function store(ctx: ExecContext): InputStore {
  let s = ctx.ext.inputs as InputStore | undefined;
  if (!s) {
    s = new InputStore();
    ctx.ext.inputs = s;
  }
  return s;
}

const SOURCES: Record<string, (c: ExecContext) => number> = {
  open: (c) => c.open,
  high: (c) => c.high,
  low: (c) => c.low,
  close: (c) => c.close,
  volume: (c) => c.volume,
  hl2: (c) => COMPOSITE_PRICES.hl2(c.open, c.high, c.low, c.close),
  hlc3: (c) => COMPOSITE_PRICES.hlc3(c.open, c.high, c.low, c.close),
  ohlc4: (c) => COMPOSITE_PRICES.ohlc4(c.open, c.high, c.low, c.close),
  hlcc4: (c) => COMPOSITE_PRICES.hlcc4(c.open, c.high, c.low, c.close),
};

/** The getter of a source input's value (a bar's price), by the source's name; undefined for other names. */
function sourceGetter(name: unknown): ((c: ExecContext) => number) | undefined {
  return typeof name === "string" && Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
}

type Kind =
  | "int"
  | "float"
  | "bool"
  | "string"
  | "color"
  | "source"
  | "symbol"
  | "timeframe"
  | "session"
  | "time"
  | "price"
  | "text_area"
  | "enum";

function parseColor(x: unknown): number | undefined {
  if (typeof x === "number") return x;
  if (typeof x !== "string") return undefined;
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(x.trim());
  if (!m) return undefined;
  const n = parseInt(m[1]!, 16);
  return packColor((n >> 16) & 255, (n >> 8) & 255, n & 255, m[2] ? parseInt(m[2], 16) : 255);
}

function coerce(kind: Kind, title: string, x: unknown): unknown {
  const bad = (want: string): never => {
    throw new InputOverrideError(`Input '${title}' expects ${want}, got ${JSON.stringify(x)}`);
  };
  switch (kind) {
    case "int":
      if (typeof x !== "number" || !Number.isInteger(x)) bad("an int");
      return x;
    case "float":
    case "price":
    case "time":
      if (typeof x !== "number" || !Number.isFinite(x)) bad("a number");
      return kind === "time" ? Math.trunc(x as number) : x;
    case "bool":
      if (typeof x !== "boolean") bad("a bool");
      return x;
    case "color": {
      const c = parseColor(x);
      if (c === undefined) bad('a colour ("#RRGGBB" or "#RRGGBBAA")');
      return c;
    }
    case "source":
      if (typeof x !== "string" || !(x in SOURCES)) bad(`a source name (${Object.keys(SOURCES).join(", ")})`);
      return x;
    case "enum": {
      if (x instanceof EnumValue) return x;
      if (typeof x !== "string") bad("an enum member name or title");
      return x; // resolved against the options below
    }
    default:
      if (typeof x !== "string") bad("a string");
      return x;
  }
}

function params(name: string): Record<string, number> {
  const out: Record<string, number> = {};
  CATALOG.functions[name]!.params.forEach((p, i) => {
    out[p] = i;
  });
  return out;
}

function reported(kind: Kind, v: unknown): unknown {
  if (kind === "color") return typeof v === "number" ? colorToString(v) : v;
  if (v instanceof EnumValue) return v.name;
  if (typeof v === "number" && v !== v) return null;
  return v;
}

interface Declared {
  rec: InputRecord;
  kind: Kind;
  value: unknown;
}

/**
 * An input call's declaration and value (the run's override, type-checked, clamped and checked
 * against the options, or the default), without recording anything: the impl records it, and
 * whole-series precompute peeks at it (inputValue) before the bar loop.
 */
function declare(
  p: Record<string, number>,
  fixedKind: Kind | null,
  ctx: ExecContext,
  a: unknown[],
  site: CallSite,
): Declared {
  const s = store(ctx);
  const def = a[p.defval!];
  const kind: Kind = fixedKind ?? inferKind(def, s.sourceNames.get(site.id));
  const title = typeof a[p.title!] === "string" ? (a[p.title!] as string) : "";
  let defval: unknown = def;
  if (kind === "source") defval = s.sourceNames.get(site.id) ?? "close";
  const opt = (name: string) => (p[name] === undefined ? undefined : a[p[name]!]);
  const min = opt("minval"),
    max = opt("maxval"),
    step = opt("step");
  // a default outside minval/maxval is clamped, as the settings dialog shows it (service.md 1.3)
  if (kind === "int" || kind === "float") defval = clamp(defval, min, max);
  const rec: InputRecord = {
    id: `in_${s.records.length}`,
    type: kind,
    title,
    default: reported(kind, defval),
    value: undefined,
  };
  if (typeof min === "number") rec.min = min;
  if (typeof max === "number") rec.max = max;
  if (typeof step === "number") rec.step = step;
  let options = opt("options") as unknown[] | undefined;
  if (kind === "enum" && def instanceof EnumValue && !options) options = undefined;
  if (Array.isArray(options)) rec.options = options.map((o) => reported(kind, o));
  for (const k of ["tooltip", "inline", "group"] as const) {
    const v = opt(k);
    if (typeof v === "string") rec[k] = v;
  }
  if (typeof opt("confirm") === "boolean") rec.confirm = opt("confirm") as boolean;
  if (Array.isArray(options) && options.length && !options.some((o) => o === defval)) {
    throw new InputOverrideError(
      `Input '${title || s.varNames.get(site.id) || rec.id}': the default ${JSON.stringify(reported(kind, defval))} is not one of its options ${JSON.stringify(rec.options)}`,
    );
  }
  let value = defval;
  const ov = s.override(title, site.id);
  if (ov.found) {
    value = coerce(kind, title || s.varNames.get(site.id) || rec.id, ov.value);
    if (kind === "int" || kind === "float") value = clamp(value, min, max);
    if (kind === "enum" && typeof value === "string" && def instanceof EnumValue) {
      const members = ctx.ext.enumMembers as Map<string, EnumValue[]> | undefined;
      const all = members?.get(def.enumName) ?? (Array.isArray(options) ? (options as EnumValue[]) : [def]);
      const m = all.find((e) => e.name === value || e.title === value);
      if (!m) throw new InputOverrideError(`Input '${title}' has no option ${JSON.stringify(value)}`);
      value = m;
    }
    if (Array.isArray(options) && options.length && !options.some((o) => o === value)) {
      throw new InputOverrideError(
        `Input '${title}' must be one of ${JSON.stringify(rec.options)}, got ${JSON.stringify(ov.value)}`,
      );
    }
  }
  rec.value = reported(kind, value);
  return { rec, kind, value };
}

/**
 * An input call site's state (site.state): its value, and for a source input the getter of its
 * source. The generated loop and the interpreter's kept closures read `state.value` in optimised
 * code, which then depends on this hidden class and its `value` field's representation. A number
 * comes here as a heap number while the impl is interpreted (read out of a double arguments array)
 * and as a small integer once it is optimised, a few runs later: a field that had held heap numbers
 * only was widened then, deoptimising the loop (trail_state's compiled loop in run 6, issue 18). So
 * the field is tagged from the start (the kept instances hold a small integer and a string), and
 * the instances are kept for good: the class of an instance with its fields is reached from the
 * constructor's by transitions, which are weak, and would otherwise go with the last run's states
 * at a GC, and code that checks for it with it.
 */
class InputState {
  static readonly kept: InputState[] = [new InputState(0, undefined), new InputState("", undefined)];
  constructor(
    readonly value: unknown,
    readonly source: ((c: ExecContext) => number) | undefined,
  ) {}
}

/**
 * A number as the same kind of V8 value whichever tier made it: an int32 one as a small integer,
 * any other as it is (never a small integer). A default read out of a double arguments array or a
 * double field comes as a heap number from interpreted code and as a small integer from optimised
 * code, and the generated loop, optimised on the one, deoptimised on the other (a float input of
 * 500: 'not a Smi' in run 5).
 */
function canonical(v: unknown): unknown {
  return typeof v === "number" && (v | 0) === v && !Object.is(v, -0) ? v | 0 : v;
}

const PARAMS = new Map<string, Record<string, number>>();
const FIXED_KIND = new Map<string, Kind | null>();

function makeInput(fname: string, fixedKind: Kind | null): BuiltinImpl {
  const p = params(fname);
  PARAMS.set(fname, p);
  FIXED_KIND.set(fname, fixedKind);
  return (ctx: ExecContext, a: unknown[], site: CallSite) => {
    const st = site.state as InputState | undefined;
    if (st !== undefined) return st.source ? st.source(ctx) : st.value;
    const { rec, kind, value: declared } = declare(p, fixedKind, ctx, a, site);
    const value = canonical(declared);
    const s = store(ctx);
    if (!s.declared.has(site.id)) {
      s.declared.add(site.id);
      s.records.push(rec);
    }
    if (kind === "source") {
      const src = sourceGetter(value) ?? SOURCES.close!;
      site.state = new InputState(value, src);
      return src(ctx);
    }
    site.state = new InputState(value, undefined);
    return value;
  };
}

/**
 * The value input call `name` (arguments in parameter order, call-site id `siteId`) will take in
 * this run, without declaring it; undefined when the call would fail (the run reports that itself).
 */
export function inputValue(ctx: ExecContext, name: string, args: unknown[], siteId: number): unknown {
  const p = PARAMS.get(name);
  if (!p) return undefined;
  try {
    return canonical(
      declare(p, FIXED_KIND.get(name) ?? null, ctx, args, { id: siteId, state: undefined } as CallSite).value,
    );
  } catch {
    return undefined;
  }
}

/** A number held to [min, max] where those are given; anything else unchanged. */
function clamp(v: unknown, min: unknown, max: unknown): unknown {
  if (typeof v !== "number") return v;
  if (typeof min === "number" && v < min) return min;
  if (typeof max === "number" && v > max) return max;
  return v;
}

function inferKind(def: unknown, sourceName: string | undefined): Kind {
  if (sourceName) return "source";
  if (typeof def === "boolean") return "bool";
  if (typeof def === "string") return "string";
  if (def instanceof EnumValue) return "enum";
  if (typeof def === "number") return Number.isInteger(def) ? "int" : "float";
  return "float";
}

const KINDS: [string, Kind | null][] = [
  ["input", null],
  ["input.int", "int"],
  ["input.float", "float"],
  ["input.bool", "bool"],
  ["input.string", "string"],
  ["input.color", "color"],
  ["input.source", "source"],
  ["input.symbol", "symbol"],
  ["input.timeframe", "timeframe"],
  ["input.session", "session"],
  ["input.time", "time"],
  ["input.price", "price"],
  ["input.text_area", "text_area"],
  ["input.enum", "enum"],
];

export const functions: BuiltinTable = {};
for (const [name, kind] of KINDS) functions[name] = { name, impl: makeInput(name, kind) };
