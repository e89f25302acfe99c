// The strategy.* builtins as a backend calls them: arguments in builtins.json parameter order,
// the broker reached through ctx.broker.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILTINS_JSON } from "../helpers/data.js";
import { constants, functions, variables } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { createBroker } from "../../src/strategy/index.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

const site: CallSite = { state: undefined, id: 0 };
const call = (name: string, ctx: ExecContext, ...args: unknown[]) => functions[name].impl(ctx, args, site);
const read = (name: string, ctx: ExecContext) => variables[name].get(ctx, site);

function session(rows: [number, number, number, number][], settings: Record<string, unknown> = {}) {
  const ctx = makeCtx(columnsOf(rows), { type: "stock" });
  const broker = createBroker(settings, ctx);
  ctx.broker = broker;
  return {
    ctx,
    broker,
    /** Runs bar i: fills, then `script`, then the close. */
    bar(i: number, script: () => void = () => {}) {
      setBar(ctx, i);
      broker.onBarOpen(ctx);
      script();
      broker.onBarClose(ctx);
    },
  };
}

describe("strategy.* builtins", () => {
  it("every function, variable and constant of builtins.json's strategy namespace is registered", async () => {
    const spec = JSON.parse(readFileSync(BUILTINS_JSON, "utf8")) as {
      functions: Record<string, unknown>;
      variables: Record<string, unknown>;
      constants: Record<string, unknown>;
    };
    const want = (o: Record<string, unknown>) => Object.keys(o).filter((k) => k.startsWith("strategy."));
    expect(want(spec.functions).filter((k) => !(k in functions))).toEqual([]);
    expect(want(spec.variables).filter((k) => !(k in variables))).toEqual([]);
    expect(want(spec.constants).filter((k) => !(k in constants))).toEqual([]);
  });

  it("entry / close with positional arguments drive the position variables", () => {
    // strategy.entry("L", strategy.long, 2) on bar 0 fills at bar 1's open 101; the script on bar 1
    // sees position 2 at avg 101, open profit (close 103 - 101) x 2 = 4, equity 1000 + 4.
    // strategy.close("L", "done") on bar 1 fills at bar 2's open 104: closed profit 6.
    const s = session(
      [
        [100, 100, 100, 100],
        [101, 103, 101, 103],
        [104, 104, 104, 104],
      ],
      { initial_capital: 1000 },
    );
    s.bar(0, () => call("strategy.entry", s.ctx, "L", constants["strategy.long"], 2));
    s.bar(1, () => {
      expect(read("strategy.position_size", s.ctx)).toBe(2);
      expect(read("strategy.position_avg_price", s.ctx)).toBe(101);
      expect(read("strategy.position_entry_name", s.ctx)).toBe("L");
      expect(read("strategy.openprofit", s.ctx)).toBe(4);
      expect(read("strategy.equity", s.ctx)).toBe(1004);
      expect(read("strategy.opentrades", s.ctx)).toBe(1);
      expect(call("strategy.opentrades.entry_price", s.ctx, 0)).toBe(101);
      expect(call("strategy.opentrades.size", s.ctx, 0)).toBe(2);
      call("strategy.close", s.ctx, "L", "done");
    });
    s.bar(2, () => {
      expect(read("strategy.position_size", s.ctx)).toBe(0);
      expect(read("strategy.closedtrades", s.ctx)).toBe(1);
      expect(read("strategy.netprofit", s.ctx)).toBe(6);
      expect(read("strategy.wintrades", s.ctx)).toBe(1);
      expect(call("strategy.closedtrades.profit", s.ctx, 0)).toBe(6);
      expect(call("strategy.closedtrades.exit_comment", s.ctx, 0)).toBe("done");
      expect(call("strategy.closedtrades.exit_price", s.ctx, 0)).toBe(104);
      expect(call("strategy.closedtrades.entry_bar_index", s.ctx, 0)).toBe(1);
      expect(call("strategy.closedtrades.profit", s.ctx, 5)).toBeNaN();
      expect(call("strategy.closedtrades.entry_id", s.ctx, 5)).toBeNull();
    });
  });

  it("strategy.exit takes its named arguments at their parameter positions", () => {
    // exit(id, from_entry, qty, qty_percent, profit, limit, loss, stop, ...): loss = 100 ticks (1.00)
    // below the 101 entry -> stop 100; bar 2 falls to 99.5 -> exit at 100, profit -1.
    const s = session([
      [100, 100, 100, 100],
      [101, 101.5, 100.5, 101],
      [101, 101, 99.5, 99.8],
    ]);
    s.bar(0, () => {
      call("strategy.entry", s.ctx, "L", "long");
      call("strategy.exit", s.ctx, "X", "L", undefined, undefined, undefined, undefined, 100);
    });
    s.bar(1);
    s.bar(2);
    expect(s.broker.ledger.closed.toArray().map((t) => [t.exit_id, t.exit_price, t.profit])).toEqual([["X", 100, -1]]);
  });

  it("strategy.risk.allow_entry_in turns entries of the other side into exits", () => {
    // Only longs allowed: a short entry on bar 1 closes the long at bar 2's open and opens nothing.
    const s = session([
      [100, 100, 100, 100],
      [101, 101, 101, 101],
      [102, 102, 102, 102],
      [103, 103, 103, 103],
    ]);
    s.bar(0, () => {
      call("strategy.risk.allow_entry_in", s.ctx, constants["strategy.direction.long"]);
      call("strategy.entry", s.ctx, "L", "long");
    });
    s.bar(1, () => call("strategy.entry", s.ctx, "S", "short"));
    s.bar(2);
    expect(read("strategy.position_size", s.ctx)).toBe(0);
    expect(s.broker.ledger.closed.get(0)!.exit_price).toBe(102);
  });

  it("strategy.risk.max_position_size caps entries", () => {
    // max 3 contracts: an entry of 5 fills 3.
    const s = session([
      [100, 100, 100, 100],
      [101, 101, 101, 101],
    ]);
    s.bar(0, () => {
      call("strategy.risk.max_position_size", s.ctx, 3);
      call("strategy.entry", s.ctx, "L", "long", 5);
    });
    s.bar(1);
    expect(read("strategy.position_size", s.ctx)).toBe(3);
  });

  it("margin_liquidation_price solves equity = margin, floored for longs and ceiled for shorts", () => {
    // Capital 1000, margin_long 25: long 2 at 101 -> P = (2 x 101 - 1000) / (2 x 0.75) = -532 (exact).
    // margin_short 30: short 3 at 101 -> P = (1000 + 303) / (3 x 1.3) = 334.1025... -> 334.11.
    const long = session(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { initial_capital: 1000, margin_long: 25 },
    );
    long.bar(0, () => call("strategy.entry", long.ctx, "L", "long", 2));
    long.bar(1, () => expect(read("strategy.margin_liquidation_price", long.ctx)).toBeCloseTo(-532, 9));
    const short = session(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { initial_capital: 1000, margin_short: 30 },
    );
    short.bar(0, () => {
      expect(read("strategy.margin_liquidation_price", short.ctx)).toBeNaN();
      call("strategy.entry", short.ctx, "S", "short", 3);
    });
    short.bar(1, () => expect(read("strategy.margin_liquidation_price", short.ctx)).toBe(334.11));
  });

  it("calls without a broker are a runtime error; variables read flat", () => {
    const ctx = makeCtx(columnsOf([[1, 1, 1, 1]]));
    expect(() => call("strategy.entry", ctx, "L", "long")).toThrow(/strategy\(\) script/);
    expect(read("strategy.position_size", ctx)).toBe(0);
  });
});
