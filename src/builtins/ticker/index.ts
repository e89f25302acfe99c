// ticker.* : build ticker ids (strings) for request.*: ticker.new / modify / standard / inherit and
// the non-standard chart types (heikinashi, renko, linebreak, kagi, pointfigure). See ids.ts for the
// id format. Also the adjustment.*, backadjustment.* and settlement_as_close.* constants they take.

import type { BuiltinTable, ConstantTable, ExecContext, VariableTable } from "../types.js";
import { formatTickerId, parseTickerId, type TickerId } from "./ids.js";

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** The current chart symbol as a ticker id ("PREFIX:TICKER"). */
export function chartSymbol(ctx: ExecContext): string {
  const p = ctx.syminfo.prefix;
  const t = ctx.syminfo.ticker ?? "";
  return p ? `${p}:${t}` : String(t);
}

function idArg(ctx: ExecContext, v: unknown, fn: string): TickerId {
  const s = typeof v === "string" ? v : "";
  const id = parseTickerId(s === "" ? chartSymbol(ctx) : s);
  if (!id) ctx.runtimeError(`${fn}: invalid ticker id "${s}"`);
  return id;
}

/** Adds session/adjustment modifiers from args[from..from+3]. */
function withModifiers(id: TickerId, args: any[], from: number): TickerId {
  const out: TickerId = { ...id };
  const session = str(args[from]);
  const adjustment = str(args[from + 1]);
  const back = str(args[from + 2]);
  const settle = str(args[from + 3]);
  if (session !== undefined) out.session = session;
  if (adjustment !== undefined) out.adjustment = adjustment;
  if (back !== undefined && back !== "inherit") out.backadjustment = back;
  if (settle !== undefined && settle !== "inherit") out.settlement_as_close = settle;
  return out;
}

/**
 * The last few ids built by one builtin, by its (up to six) arguments compared with ===: scripts call
 * ticker.new / ticker.modify / ticker.heikinashi ... every bar with the same arguments, and an id is a
 * pure function of them. A small ring (no per-call allocation on a hit, bounded).
 */
class IdMemo {
  private readonly keys: unknown[] = [];
  private readonly ids: string[] = [];
  private count = 0;
  private next = 0;
  private static readonly SIZE = 8;

  get(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown): string | undefined {
    const k = this.keys;
    for (let i = 0; i < this.count; i++) {
      const o = i * 6;
      if (k[o] === a && k[o + 1] === b && k[o + 2] === c && k[o + 3] === d && k[o + 4] === e && k[o + 5] === f)
        return this.ids[i];
    }
    return undefined;
  }

  set(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, id: string): string {
    const i = this.next;
    const o = i * 6;
    const k = this.keys;
    k[o] = a;
    k[o + 1] = b;
    k[o + 2] = c;
    k[o + 3] = d;
    k[o + 4] = e;
    k[o + 5] = f;
    this.ids[i] = id;
    this.next = (i + 1) % IdMemo.SIZE;
    if (this.count < IdMemo.SIZE) this.count++;
    return id;
  }
}

const newIds = new IdMemo();
const modifiedIds = new IdMemo();

/** Each chart type's last ids, by the id text read (the chart's symbol for an empty one) and args[1..4]. */
const chartIds = new Map<string, IdMemo>();

function chartType(ctx: ExecContext, args: any[], fn: string, type: string, params: Record<string, unknown>): string {
  // (params are made from args[1..4] alone: the same arguments give the same id)
  const s = typeof args[0] === "string" && args[0] !== "" ? args[0] : chartSymbol(ctx);
  let memo = chartIds.get(type);
  if (memo === undefined) chartIds.set(type, (memo = new IdMemo()));
  const known = memo.get(s, args[1], args[2], args[3], args[4], undefined);
  if (known !== undefined) return known;
  return memo.set(s, args[1], args[2], args[3], args[4], undefined, chartTypeId(ctx, args, fn, type, params));
}

function chartTypeId(ctx: ExecContext, args: any[], fn: string, type: string, params: Record<string, unknown>): string {
  const id = idArg(ctx, args[0], fn);
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) clean[k] = v;
  return formatTickerId({ ...id, type, params: Object.keys(clean).length ? clean : undefined });
}

export const functions: BuiltinTable = {
  "ticker.new": {
    name: "ticker.new",
    impl: (ctx, args) => {
      const prefix = str(args[0]);
      const ticker = str(args[1]);
      if (ticker === undefined) return ctx.runtimeError("ticker.new: the ticker argument is empty");
      const m0 = str(args[2]);
      const m1 = str(args[3]);
      const m2 = str(args[4]);
      const m3 = str(args[5]);
      const known = newIds.get(prefix, ticker, m0, m1, m2, m3);
      if (known !== undefined) return known;
      const symbol = prefix ? `${prefix}:${ticker}` : ticker;
      const id = formatTickerId(withModifiers({ symbol, prefix: prefix ?? "", ticker }, args, 2));
      return newIds.set(prefix, ticker, m0, m1, m2, m3, id);
    },
  },
  "ticker.modify": {
    name: "ticker.modify",
    impl: (ctx, args) => {
      // the key is the id text idArg reads (the chart symbol for an empty one)
      const s = typeof args[0] === "string" && args[0] !== "" ? args[0] : chartSymbol(ctx);
      const m0 = str(args[1]);
      const m1 = str(args[2]);
      const m2 = str(args[3]);
      const m3 = str(args[4]);
      const known = modifiedIds.get(s, m0, m1, m2, m3, undefined);
      if (known !== undefined) return known;
      const id = formatTickerId(withModifiers(idArg(ctx, args[0], "ticker.modify"), args, 1));
      return modifiedIds.set(s, m0, m1, m2, m3, undefined, id);
    },
  },
  "ticker.standard": {
    name: "ticker.standard",
    impl: (ctx, args) => idArg(ctx, args[0], "ticker.standard").symbol,
  },
  "ticker.inherit": {
    name: "ticker.inherit",
    impl: (ctx, args) => {
      const from = idArg(ctx, args[0], "ticker.inherit");
      const sym = idArg(ctx, args[1], "ticker.inherit");
      return formatTickerId({ ...from, symbol: sym.symbol, prefix: sym.prefix, ticker: sym.ticker });
    },
  },
  "ticker.heikinashi": {
    name: "ticker.heikinashi",
    impl: (ctx, args) => chartType(ctx, args, "ticker.heikinashi", "heikinashi", {}),
  },
  "ticker.renko": {
    name: "ticker.renko",
    impl: (ctx, args) =>
      chartType(ctx, args, "ticker.renko", "renko", {
        style: args[1],
        param: args[2],
        request_wicks: args[3] ?? false,
        source: args[4] ?? "close",
      }),
  },
  "ticker.linebreak": {
    name: "ticker.linebreak",
    impl: (ctx, args) => chartType(ctx, args, "ticker.linebreak", "linebreak", { number_of_lines: args[1] }),
  },
  "ticker.kagi": {
    name: "ticker.kagi",
    // (symbol, reversal) or (symbol, param, style): the second form has a string third argument.
    impl: (ctx, args) =>
      typeof args[2] === "string" || typeof args[3] === "string"
        ? chartType(ctx, args, "ticker.kagi", "kagi", {
            param: typeof args[2] === "string" ? args[1] : args[2],
            style: typeof args[2] === "string" ? args[2] : args[3],
          })
        : chartType(ctx, args, "ticker.kagi", "kagi", { reversal: args[1] }),
  },
  "ticker.pointfigure": {
    name: "ticker.pointfigure",
    impl: (ctx, args) =>
      chartType(ctx, args, "ticker.pointfigure", "pointfigure", {
        source: args[1],
        style: args[2],
        param: args[3],
        reversal: args[4],
      }),
  },
};

export const variables: VariableTable = {};

export const constants: ConstantTable = {
  "adjustment.none": "none",
  "adjustment.splits": "splits",
  "adjustment.dividends": "dividends",
  "backadjustment.inherit": "inherit",
  "backadjustment.on": "on",
  "backadjustment.off": "off",
  "settlement_as_close.inherit": "inherit",
  "settlement_as_close.on": "on",
  "settlement_as_close.off": "off",
};
