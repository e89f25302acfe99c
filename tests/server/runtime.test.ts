// End-to-end over real HTTP with the real Runtime (in-process engine: the tests run from sources).

import { base64Column } from "../../src/cli/bench-optimize.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/node/host.js";
import { post, start } from "./helpers.js";
import { rampBars } from "../helpers/ramp-bars.js";

const BARS = Array.from({ length: 300 }, (_, i) => {
  const c = 100 + 10 * Math.sin(i / 7) + i * 0.02;
  return { time: 1_700_000_000_000 + i * 60_000, open: c - 0.3, high: c + 1, low: c - 1, close: c, volume: 1000 + i };
});

const CROSS_STRATEGY = `//@version=6
strategy("Cross", overlay=true)
fast = input.int(5, "Fast", minval=2, maxval=20)
slow = input.int(20, "Slow", minval=10, maxval=60)
f = ta.sma(close, fast)
s = ta.sma(close, slow)
if ta.crossover(f, s)
    strategy.entry("L", strategy.long)
if ta.crossunder(f, s)
    strategy.close("L")
plot(f, "fast")
`;

let server: RunningServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

describe("real runs", () => {
  it("/run evaluates an indicator", async () => {
    const res = await post(server.url, "/run", {
      script: '//@version=6\nindicator("x")\nplot(ta.sma(close, 3), "sma")\n',
      data: BARS,
      mode: "interpret",
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("success");
    expect(res.json.count).toBe(BARS.length);
    expect(res.json.series.sma).toHaveLength(BARS.length);
    expect(res.json.series.sma[2]).toBeCloseTo((BARS[0]!.close + BARS[1]!.close + BARS[2]!.close) / 3, 9);
    expect(res.json.mode).toBe("interpret");
  });

  it("/run reports a parse error as 422 SCRIPT_ERROR and a bad bar as a data error", async () => {
    const res = await post(server.url, "/run", { script: '//@version=6\nindicator("x")\nplot(close +)\n', data: BARS });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: "SCRIPT_ERROR", error_kind: "parse" });
    expect(res.json.diagnostics.length).toBeGreaterThan(0);
    const bad = BARS.slice(0, 5).map((b, i) => (i === 3 ? { ...b, high: b.low - 1 } : b));
    const data = await post(server.url, "/run", {
      script: '//@version=6\nindicator("x")\nplot(close, "c")\n',
      data: bad,
    });
    expect(data.status).toBe(422);
    expect(data.json).toMatchObject({ error_kind: "data", error_bar: 3 });
  });

  it("a timeout returns 200 with timed_out and the partial result", async () => {
    // 300k loop steps per bar (0.3-3 ms, far under Pine's 500 ms loop limit even when loaded) over
    // 20,000 bars: the run needs well past its 1 s budget however fast the loop (1,000 bars were
    // done inside it once the interpreter ran this loop at ~1 ns a step), and the first bars finish
    // inside it.
    const heavy =
      '//@version=6\nindicator("h")\nvar float acc = 0.0\nfor i = 0 to 300000\n    acc += math.sqrt(i)\nplot(acc, "a")\n';
    const bars = rampBars(20_000);
    const res = await post(server.url, "/run", { script: heavy, data: bars, timeout_seconds: 1, mode: "interpret" });
    expect(res.status).toBe(200);
    expect(res.json.timed_out).toBe(true);
    expect(res.json.count).toBeGreaterThan(0);
    expect(res.json.count).toBeLessThan(bars.length);
  });

  it("/run/batch with a real partial failure", async () => {
    const res = await post(server.url, "/run/batch", {
      runs: [
        { id: "ok", script: '//@version=6\nindicator("x")\nplot(close, "c")\n' },
        { id: "bad", script: '//@version=6\nindicator("x")\nplot(nope, "c")\n' },
      ],
      data: BARS,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "partial", ok: 1, count: 2 });
    expect(res.json.results[1]).toMatchObject({ id: "bad", status: "error", code: "SCRIPT_ERROR" });
  });

  it("/optimize searches a real strategy's inputs", async () => {
    const res = await post(server.url, "/optimize", {
      script: CROSS_STRATEGY,
      data: BARS,
      n_trials: 6,
      sampler: "random",
      seed: 5,
      min_trades: 1,
      objective: "net_pnl",
      space: {
        params: [
          { name: "Fast", kind: "int", min: 2, max: 8 },
          { name: "Slow", kind: "int", min: 10, max: 30, step: 5 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.trials).toHaveLength(6);
    expect(res.json.trials.every((t: { error: string | null }) => t.error === null)).toBe(true);
    expect(res.json.trials.some((t: { is_stats: { trades: number } }) => t.is_stats.trades > 0)).toBe(true);
    expect(res.json.engine_runs).toBe(12);
    expect(res.json.best_params).not.toBeNull();
    // The winner re-runs through /run with its params as inputs, and the answer already carries that
    // run (best_result: the study's whole bars, every field but the event array).
    const rerun = await post(server.url, "/run", {
      script: CROSS_STRATEGY,
      data: BARS,
      inputs: res.json.best_params,
      mode: "auto",
    });
    expect(rerun.status).toBe(200);
    expect(rerun.json.inputs.find((i: { title: string }) => i.title === "Fast").value).toBe(res.json.best_params.Fast);
    const full = res.json.best_result;
    expect(full.events).toBeUndefined();
    expect(full.count).toBe(BARS.length);
    expect(full.strategy.trades.length).toBeGreaterThan(0);
    const { status: _s, run_id: _r, profile: _p, events: _e, ...fromRun } = rerun.json;
    const { run_id: _r2, profile: _p2, ...fromStudy } = full;
    expect(fromStudy).toEqual(fromRun);
  });

  it("/optimize with columnar data answers exactly as with the same bars as rows", async () => {
    const body = {
      script: CROSS_STRATEGY,
      n_trials: 8,
      sampler: "random",
      seed: 9,
      min_trades: 1,
      validation: { mode: "walk-forward", train_bars: 120, test_bars: 60 },
      space: {
        params: [
          { name: "Fast", kind: "int", min: 2, max: 8 },
          { name: "Slow", kind: "int", min: 10, max: 30, step: 5 },
        ],
      },
    };
    const columns = {
      time: BARS.map((b) => b.time),
      open: BARS.map((b) => b.open),
      high: BARS.map((b) => b.high),
      low: BARS.map((b) => b.low),
      close: BARS.map((b) => b.close),
      volume: BARS.map((b) => b.volume),
    };
    const untimed = (j: any) => ({
      ...j,
      ms: 0,
      trials: j.trials.map((t: object) => ({ ...t, ms: 0 })),
      best_result: { ...j.best_result, run_id: 0, profile: 0 },
    });
    const rows = await post(server.url, "/optimize", { ...body, data: BARS });
    const cols = await post(server.url, "/optimize", { ...body, data: columns });
    expect(rows.status).toBe(200);
    expect(rows.json.best_params).not.toBeNull();
    expect(untimed(cols.json)).toEqual(untimed(rows.json));
    // without volume: as rows without it (volume is na, not invented)
    const { volume: _v, ...noVolume } = columns;
    const rowsNoVolume = BARS.map(({ volume: _x, ...b }) => b);
    const a = await post(server.url, "/optimize", { ...body, data: noVolume });
    const b = await post(server.url, "/optimize", { ...body, data: rowsNoVolume });
    expect(a.status).toBe(200);
    expect(untimed(a.json)).toEqual(untimed(b.json));
    // columns as base64 of little-endian float64 values (any mix with arrays): the same answer
    const b64 = base64Column;
    const binary = { ...columns, time: b64(columns.time), close: b64(columns.close), volume: b64(columns.volume) };
    const bin = await post(server.url, "/optimize", { ...body, data: binary });
    expect(bin.status).toBe(200);
    expect(untimed(bin.json)).toEqual(untimed(rows.json));
    // a string that is not such a column, or of another length, is 400 INVALID_FIELD naming the column
    for (const [column, value] of [
      ["open", "not base64!"],
      ["high", Buffer.from([1, 2, 3]).toString("base64")],
      ["low", b64(columns.low.slice(1))],
    ] as const) {
      const bad = await post(server.url, "/optimize", { ...body, data: { ...binary, [column]: value } });
      expect(bad.status).toBe(400);
      expect(bad.json.code).toBe("INVALID_FIELD");
      expect(bad.json).toMatchObject({ field: "data", column });
    }
  });
});
