// strategy.closedtrades.* / strategy.opentrades.* by index (trades.ts): each builtin its own small
// function with a positional form (BuiltinDef.direct), which both backends call with the index, no
// argument array; na for every index that names no trade (negative, na, fractional, past the last,
// trimmed below first_index in v6), in the positional form, through the impl and in both modes.

import { describe, expect, it } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { generatedSource } from "../../src/compile/index.js";
import { createBroker } from "../../src/strategy/index.js";
import { program } from "../compile/parity.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

const lookups = Object.keys(functions).filter((n) => /^strategy\.(closedtrades|opentrades)\.[a-z_]+$/.test(n));
const site: CallSite = { state: undefined, id: 0 };

describe("per-trade lookups as the backends call them", () => {
  it("are one function each, with a positional form", () => {
    // every field of both lists (first_index is a variable)
    expect(lookups).toHaveLength(31);
    const direct = lookups.map((n) => functions[n]!.direct);
    expect(direct.every((d) => typeof d === "function")).toBe(true);
    expect(new Set(direct).size).toBe(lookups.length);
  });

  it("are called by the compiled loop with the index itself, not through an argument array", () => {
    const text = generatedSource(
      program(
        v6(
          [
            "float s = 0.0",
            "for i = 0 to strategy.closedtrades - 1",
            '    s += strategy.closedtrades.profit(i) + (strategy.closedtrades.exit_comment(i) == "x" ? 1 : 0)',
            "plot(s + nz(strategy.opentrades.profit(0)))",
          ].join("\n"),
          "strategy('s')",
        ),
      ),
    );
    expect(text.match(/K\d+\(ctx, s\d+\)/g)).toHaveLength(2);
    expect(text).toMatch(/K\d+\(ctx, \(0\)\)/);
    // (an argument array is filled as `K<n>[0] = ...` before the call: only plot's first-bar registration)
    expect(text).not.toMatch(/K\d+\[0\] = s\d+/);
    expect(text).not.toMatch(/K\d+\[0\] = \(0\)/);
  });

  it("give na for every index that names no trade, in the positional form and through the impl", () => {
    // alternate long and short trades, one a bar; a trade limit of 3 trims the oldest
    const rows = Array.from({ length: 12 }, (_, i): [number, number, number, number] => [
      100 + i,
      102 + i,
      99 + i,
      101 + i,
    ]);
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const broker = createBroker({ trade_limit: 3 }, ctx);
    ctx.broker = broker;
    for (let i = 0; i < 8; i++) {
      setBar(ctx, i);
      broker.onBarOpen(ctx);
      functions["strategy.entry"]!.impl(ctx, [i % 2 === 0 ? "L" : "S", i % 2 === 0 ? "long" : "short"], site);
      broker.onBarClose(ctx);
    }
    const closed = broker.ledger.closed;
    expect([closed.total, closed.firstIndex, broker.ledger.open.length]).toEqual([6, 3, 1]);
    const both = (name: string, i: number) => {
      const d = functions[name]!.direct!(ctx, i);
      expect(functions[name]!.impl(ctx as ExecContext, [i], site), `${name}(${String(i)})`).toEqual(d);
      return d;
    };
    const none = [-1, -0.5, 0.5, 3.5, NaN, Infinity, -Infinity, 2 ** 32 + 3];
    for (const name of lookups) {
      const na = /_id$|_comment$/.test(name) ? null : NaN;
      const list = name.startsWith("strategy.closedtrades.") ? "closed" : "open";
      // trimmed (0-2, -0 is 0), then past the last closed trade / the one open trade
      const missing = list === "closed" ? [...none, -0, 0, 1, 2, 6, 7] : [...none, 1, 2];
      for (const i of missing) expect(both(name, i), `${name}(${String(i)})`).toEqual(na);
      const present = list === "closed" ? [3, 4, 5] : [0, -0];
      // (no comments were given: a comment reads null there too; the script below gives them)
      if (!name.endsWith("_comment")) for (const i of present) expect(both(name, i), `${name}(${i})`).not.toEqual(na);
    }
    // the kept trades read their own rows (trade k entered on bar k, closed by the next entry)
    for (let k = 3; k < 6; k++) {
      expect(both("strategy.closedtrades.entry_bar_index", k)).toBe(k + 1);
      expect(both("strategy.closedtrades.entry_id", k), `entry_id(${k})`).toBe(k % 2 === 0 ? "L" : "S");
      expect(both("strategy.closedtrades.size", k)).toBe(k % 2 === 0 ? 1 : -1);
    }
    // (bar 7's short entry fills on bar 8: bar 6's long is still open)
    expect(both("strategy.opentrades.entry_id", -0)).toBe("L");
    expect(both("strategy.opentrades.entry_bar_index", 0)).toBe(7);
    // an argument array holding no number (the backends pass numbers): na, as an na index
    for (const name of lookups)
      for (const x of [null, undefined, "3", true])
        expect(functions[name]!.impl(ctx, [x], site), `${name}(${String(x)})`).toEqual(
          /_id$|_comment$/.test(name) ? null : NaN,
        );
    // without a broker (an indicator) every lookup is na
    ctx.broker = null;
    for (const name of lookups) expect(both(name, 0)).toEqual(/_id$|_comment$/.test(name) ? null : NaN);
  });

  it("agree in both modes on negative, na, trimmed and past-the-end indexes in a loop (v6, small trade limit)", async () => {
    const body = [
      "if bar_index % 2 == 0",
      "    strategy.entry('L', strategy.long, comment = 'in ' + str.tostring(bar_index))",
      "else",
      "    strategy.close('L', comment = bar_index % 4 == 1 ? 'a' : 'b')",
      "fi = strategy.closedtrades.first_index",
      "float sum = 0.0",
      "int nas = 0",
      "int as = 0",
      "for i = fi - 2 to strategy.closedtrades",
      "    p = strategy.closedtrades.profit(i)",
      "    nas += na(p) ? 1 : 0",
      "    sum += nz(p) + nz(strategy.closedtrades.max_runup(i)) + nz(strategy.closedtrades.size(i))",
      "    as += strategy.closedtrades.exit_comment(i) == 'a' ? 1 : 0",
      "int j = na",
      "plot(sum, 'sum')",
      "plot(nas, 'nas')",
      "plot(as, 'as')",
      "plot(strategy.closedtrades.profit(-1), 'neg')",
      "plot(strategy.closedtrades.profit(j), 'na')",
      "plot(na(strategy.closedtrades.entry_comment(j)) ? 1 : 0, 'na comment')",
      "plot(strategy.opentrades.entry_bar_index(strategy.opentrades), 'open past')",
      "plot(strategy.opentrades.profit(strategy.opentrades - 1), 'open last')",
      "plot(fi, 'first')",
    ].join("\n");
    const r = await runBoth(v6(body, "strategy('s')"), bars(120), { runtime: { broker: { trade_limit: 5 } } });
    expect(r.error).toBeUndefined();
    const s = r.series;
    const last = 119;
    // the loop runs first_index - 2 .. closedtrades: two trimmed (once there are) and one past the end
    const closed = r.strategy!.stats.total_closed_trades;
    expect(closed).toBeGreaterThan(20);
    expect(s.first![last]).toBe(closed - 5);
    expect(s.nas![last]).toBe(3);
    expect(s.nas![0]).toBe(3);
    const kept = r.strategy!.trades;
    expect(kept).toHaveLength(5);
    const sum = kept.reduce((a, t) => a + t.profit + t.run_up + (t.direction === "long" ? t.qty : -t.qty), 0);
    expect(s.sum![last]).toBeCloseTo(sum, 9);
    expect(s.as![last]).toBe(kept.filter((t) => t.exit_comment === "a").length);
    for (const k of ["neg", "na", "open past"]) expect(s[k]!.every((v) => v === null)).toBe(true);
    expect(s["na comment"]!.every((v) => v === 1)).toBe(true);
  }, 60_000);
});
