import { describe, expect, it } from "vitest";
import {
  alertConditionsResult,
  alertsResult,
  beginTick,
  commitBar,
  createAlertStore,
  functions,
  resolvePlaceholders,
  resolveStrategyPlaceholders,
  type AlertStore,
} from "../../src/builtins/alert/index.js";
import { PlotStore } from "../../src/builtins/plot/store.js";
import { constants as core } from "../../src/builtins/core/index.js";
import type { CallSite } from "../../src/builtins/types.js";
import { atBar, makeCtx } from "./drawing-helpers.js";

const alert = functions.alert!.impl;
const cond = functions.alertcondition!.impl;
const S = (id: number): CallSite => ({ id, state: undefined });

describe("alert()", () => {
  it("the freq constants of the core module are the values alert() accepts", () => {
    expect([core["alert.freq_once_per_bar"], core["alert.freq_once_per_bar_close"], core["alert.freq_all"]]).toEqual([
      "once_per_bar",
      "once_per_bar_close",
      "all",
    ]);
  });

  it("records every call on historical bars, default freq once_per_bar, lazily creating the store", () => {
    const ctx = makeCtx(3);
    for (let b = 0; b < 3; b++) {
      atBar(ctx, b);
      alert(ctx, [`bar ${b}`], S(1));
      alert(ctx, [`again ${b}`, "all"], S(2));
      alert(ctx, [`again ${b}`, "once_per_bar"], S(1));
    }
    const rec = alertsResult(ctx.ext.alerts as AlertStore);
    expect(rec.length).toBe(9);
    expect(rec[0]).toEqual({
      message: "bar 0",
      freq: "once_per_bar",
      bar_index: 0,
      time: ctx.columns.time[0],
      source: "alert",
    });
    expect(rec[4]).toMatchObject({ message: "again 1", freq: "all", bar_index: 1 });
  });

  it("realtime ticks: once_per_bar fires once per bar, all on every tick, once_per_bar_close on the closing tick", () => {
    const ctx = makeCtx(3, { alerts: createAlertStore() });
    const store = ctx.ext.alerts as AlertStore;
    ctx.isRealtime = true;
    for (let b = 1; b < 3; b++) {
      atBar(ctx, b);
      for (let k = 0; k < 4; k++) {
        ctx.isNewTick = k === 0;
        ctx.isConfirmed = k === 3;
        beginTick(store, ctx);
        alert(ctx, ["once", "once_per_bar"], S(10));
        alert(ctx, ["all", "all"], S(11));
        alert(ctx, ["close", "once_per_bar_close"], S(12));
      }
      commitBar(store, ctx);
    }
    const rec = alertsResult(store);
    const count = (m: string) => rec.filter((r) => r.message === m).length;
    expect(count("once")).toBe(2);
    expect(count("all")).toBe(8);
    expect(count("close")).toBe(2);
    expect(rec.filter((r) => r.message === "close").map((r) => r.bar_index)).toEqual([1, 2]);
  });

  it("rejects an unknown freq with a runtime error", () => {
    const ctx = makeCtx(1);
    expect(() => alert(ctx, ["x", "sometimes"], S(1))).toThrow(/invalid freq/);
  });
});

describe("alertcondition()", () => {
  it("declares once per site and records the bars where the condition is true", () => {
    const ctx = makeCtx(5);
    for (let b = 0; b < 5; b++) {
      atBar(ctx, b);
      cond(ctx, [b % 2 === 0, "Even", "even bar at {{close}}"], S(1));
      cond(ctx, [false, "Never", "never"], S(2));
    }
    const store = ctx.ext.alerts as AlertStore;
    expect(alertConditionsResult(store)).toEqual([
      {
        title: "Even",
        message: "even bar at {{close}}",
        fired_bars: [0, 2, 4],
        fired_times: [0, 2, 4].map((i) => ctx.columns.time[i]),
      },
      { title: "Never", message: "never", fired_bars: [], fired_times: [] },
    ]);
    const rec = alertsResult(store);
    expect(rec.map((r) => r.message)).toEqual(["even bar at 100", "even bar at 102", "even bar at 104"]);
    expect(rec[0]).toMatchObject({ source: "alertcondition", title: "Even", bar_index: 0 });
  });

  it("after its first call, a false condition reads nothing (no store lookup a bar); a true one records", () => {
    const ctx = makeCtx(6);
    const site = S(1);
    atBar(ctx, 0);
    cond(ctx, [false, "T", "m"], site);
    const store = ctx.ext.alerts as AlertStore;
    // the run's context and store out of reach: a false condition must not touch them
    const ext = ctx.ext;
    ctx.ext = new Proxy({} as typeof ext, {
      get: () => {
        throw new Error("store read");
      },
    });
    for (let b = 1; b < 5; b++) {
      atBar(ctx, b);
      expect(cond(ctx, [false, "T", "m"], site)).toBeUndefined();
    }
    ctx.ext = ext;
    atBar(ctx, 5);
    cond(ctx, [true, "T", "m"], site);
    expect(alertConditionsResult(store)).toEqual([
      { title: "T", message: "m", fired_bars: [5], fired_times: [ctx.columns.time[5]] },
    ]);
  });

  it("fires at most once per realtime bar", () => {
    const ctx = makeCtx(2);
    atBar(ctx, 1);
    ctx.isRealtime = true;
    for (let k = 0; k < 3; k++) cond(ctx, [true, "T", "m"], S(1));
    expect(alertConditionsResult(ctx.ext.alerts as AlertStore)[0]!.fired_bars).toEqual([1]);
  });
});

describe("placeholders", () => {
  it("bar values, symbol, interval, plots by number and title; unknown ones stay", () => {
    const ctx = makeCtx(3);
    const plots = new PlotStore(3, false);
    const a = plots.register("plot", "RSI", "number", {});
    const b = plots.register("plot", "", "number", {});
    a.col.set([10, 20.5, 30]);
    b.col.set([1, NaN, 3]);
    ctx.ext.plots = plots;
    const msg =
      '{{ticker}}@{{exchange}} {{interval}} o={{open}} h={{high}} l={{low}} c={{close}} v={{volume}} t={{time}} p0={{plot_0}} p1={{plot_1}} r={{plot("RSI")}} {{nope}}';
    expect(resolvePlaceholders(msg, ctx, 1)).toBe(
      `BTCUSD@BINANCE 1 o=100.5 h=102 l=100 c=101 v=1000 t=${new Date(ctx.columns.time[1]!).toISOString().replace(".000Z", "Z")} p0=20.5 p1=NaN r=20.5 {{nope}}`,
    );
  });

  it("strategy alert_message placeholders", () => {
    const out = resolveStrategyPlaceholders(
      "{{strategy.order.action}} {{strategy.order.contracts}} @ {{strategy.order.price}} id={{strategy.order.id}} pos={{strategy.position_size}} mp={{strategy.market_position}} {{close}}",
      { action: "buy", contracts: 2, price: 101.25, id: "L", position_size: 2, market_position: "long" },
    );
    expect(out).toBe("buy 2 @ 101.25 id=L pos=2 mp=long {{close}}");
    const ctx = makeCtx(2);
    expect(resolveStrategyPlaceholders("{{strategy.order.action}} {{close}}", { action: "sell" }, ctx, 1)).toBe(
      "sell 101",
    );
  });
});
