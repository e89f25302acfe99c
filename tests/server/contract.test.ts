// Contract tests of the HTTP API over real HTTP (service.md 2): routes, every error code, the
// order of checks. The engine is a stand-in here (runtime.test.ts runs real scripts).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/node/host.js";
import { BARS, fakeEngine, post, start } from "./helpers.js";

const OK = '//@version=6\nindicator("ok")\nplot(close)\n';
const STRAT = '//@version=6\nstrategy("s")\nlen = input.int(10, "Length", minval=2, maxval=50)\n';

let server: RunningServer;
let engine: ReturnType<typeof fakeEngine>;

beforeAll(async () => {
  engine = fakeEngine();
  server = await start({ engine });
});
afterAll(() => server.close());

describe("routing", () => {
  it("GET /health", async () => {
    const res = await fetch(new URL("/health", server.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      service: "resin",
      version: expect.any(String),
      modes: ["interpret", "compile", "auto"],
      default_mode: "auto",
      features: { optimize: true, batch: true, free_tier_limits: false, runner: false },
      kernels: "wasm",
      max_run_seconds: 30,
    });
  });

  it("the host's run cap (SVC_MAX_RUN_SECONDS, default 30): timeout_seconds can only lower it", async () => {
    const engine = fakeEngine();
    const capped = await start({ engine, env: { SVC_MAX_RUN_SECONDS: "5" } });
    try {
      expect((await (await fetch(new URL("/health", capped.url))).json()).max_run_seconds).toBe(5);
      for (const t of [undefined, null, 0, -1, 2, 5, 60])
        await post(capped.url, "/run", { script: OK, data: BARS, ...(t === undefined ? {} : { timeout_seconds: t }) });
      expect(engine.jobs.map((j) => j.options.timeoutSeconds)).toEqual([5, 5, 5, 5, 2, 5, 5]);
    } finally {
      await capped.close();
    }
  });

  it("unknown route -> 404 NOT_FOUND, wrong method -> 405 METHOD_NOT_ALLOWED, both JSON", async () => {
    const nf = await fetch(new URL("/nope", server.url));
    expect(nf.status).toBe(404);
    expect(await nf.json()).toMatchObject({ status: "error", code: "NOT_FOUND" });
    const get = await fetch(new URL("/run", server.url));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toMatchObject({ status: "error", code: "METHOD_NOT_ALLOWED" });
    expect((await post(server.url, "/health", {})).status).toBe(405);
    expect((await post(server.url, "/nope", {})).json.code).toBe("NOT_FOUND");
  });

  it("sends no CORS headers by default: `resin serve` is same-origin, other pages cannot drive it", async () => {
    const pre = await fetch(new URL("/run", server.url), {
      method: "OPTIONS",
      headers: {
        origin: "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const res = await fetch(new URL("/health", server.url), { headers: { origin: "http://evil.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers CORS preflights for the allowed origins only (SVC_CORS_ORIGINS)", async () => {
    const allowed = await start({
      engine: fakeEngine(),
      env: { SVC_CORS_ORIGINS: "http://localhost:5173, http://127.0.0.1:5173" },
    });
    try {
      const pre = await fetch(new URL("/run", allowed.url), {
        method: "OPTIONS",
        headers: {
          origin: "http://localhost:5173",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
      const other = await fetch(new URL("/health", allowed.url), { headers: { origin: "http://evil.example" } });
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await allowed.close();
    }
  });

  it("requires a JSON content type: text/plain bodies are never parsed (415)", async () => {
    const body = JSON.stringify({ script: OK, data: BARS });
    for (const type of [
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await post(server.url, "/run", body, { headers: { "content-type": type } });
      expect(res.status, type).toBe(415);
      expect(res.json).toMatchObject({ status: "error", code: "UNSUPPORTED_MEDIA_TYPE" });
    }
    const none = await fetch(new URL("/run", server.url), { method: "POST", body: new Blob([body]) });
    expect(none.status).toBe(415);
    expect(
      (await post(server.url, "/run", body, { headers: { "content-type": "application/json; charset=utf-8" } })).status,
    ).toBe(200);
  });

  it("a body over 5 MB -> 413 BODY_TOO_LARGE", async () => {
    const big = JSON.stringify({ script: "x".repeat(5 * 1024 * 1024 + 10), data: [] });
    const res = await post(server.url, "/run", big);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ status: "error", code: "BODY_TOO_LARGE" });
  });

  it("an unexpected failure -> 500 INTERNAL_ERROR without a stack trace", async () => {
    const res = await post(server.url, "/run", { script: "CRASH", data: BARS });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ status: "error", code: "INTERNAL_ERROR", message: "internal error" });
    expect(JSON.stringify(res.json)).not.toMatch(/secret|at /);
  });
});

describe("shared validation", () => {
  const cases: [string, string, unknown, number, Record<string, unknown>][] = [
    ["not JSON", "/run", "{nope", 400, { code: "INVALID_BODY" }],
    ["an array", "/run", "[1,2]", 400, { code: "INVALID_BODY" }],
    ["a string", "/optimize", '"x"', 400, { code: "INVALID_BODY" }],
    ["empty body", "/run/batch", "", 400, { code: "INVALID_BODY" }],
    ["{} on /run", "/run", {}, 400, { code: "MISSING_FIELD", field: "script" }],
    ["{} on /run/batch", "/run/batch", {}, 400, { code: "MISSING_FIELD", field: "runs" }],
    ["{} on /optimize", "/optimize", {}, 400, { code: "MISSING_FIELD", field: "script" }],
    ["{} on /backtest/quick", "/backtest/quick", {}, 400, { code: "MISSING_FIELD", field: "data" }],
    ["fields in schema order", "/run", { data: "x" }, 400, { code: "MISSING_FIELD", field: "script" }],
    ["wrong type", "/run", { script: 1, data: [] }, 400, { code: "INVALID_FIELD", field: "script" }],
    ["null on a required field", "/run", { script: null, data: [] }, 400, { code: "MISSING_FIELD", field: "script" }],
    [
      "bool is not an int",
      "/optimize",
      { script: STRAT, data: BARS, space: {}, n_trials: true },
      400,
      { code: "INVALID_FIELD", field: "n_trials" },
    ],
    [
      "a float is not an int",
      "/backtest/quick",
      { data: BARS, fast: 1.5 },
      400,
      { code: "INVALID_FIELD", field: "fast" },
    ],
    [
      "bool is not a number",
      "/run",
      { script: OK, data: BARS, timeout_seconds: true },
      400,
      { code: "INVALID_FIELD", field: "timeout_seconds" },
    ],
    [
      "unknown fields, sorted",
      "/run",
      { script: OK, data: BARS, zeta: 1, alpha: 2 },
      400,
      { code: "UNKNOWN_FIELDS", fields: ["alpha", "zeta"] },
    ],
    [
      "unknown fields after known ones",
      "/run",
      { zzz: 1, script: OK, data: 5 },
      400,
      { code: "INVALID_FIELD", field: "data" },
    ],
    [
      "libraries over 32",
      "/run",
      { script: OK, data: BARS, libraries: Array.from({ length: 33 }, () => ({})) },
      400,
      { code: "INVALID_FIELD", field: "libraries" },
    ],
    ["empty script", "/run", { script: "  ", data: BARS }, 400, { code: "NO_SCRIPT" }],
    ["empty data", "/run", { script: OK, data: [] }, 400, { code: "NO_DATA" }],
  ];
  it.each(cases)("%s", async (_label, path, body, status, expected) => {
    const res = await post(server.url, path, body);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ status: "error", ...expected });
    expect(typeof res.json.message).toBe("string");
  });

  it("an int is a valid float, and null on an optional field takes its default", async () => {
    const n = engine.jobs.length;
    const res = await post(server.url, "/run", {
      script: OK,
      data: BARS,
      symbol: null,
      mode: null,
      inputs: null,
      timeout_seconds: 2,
      realtime: null,
    });
    expect(res.status).toBe(200);
    const job = engine.jobs[n]!;
    expect(job.symbol).toBe("CHART");
    expect(job.options.mode).toBe("auto");
    expect(job.options.timeoutSeconds).toBe(2);
    expect(job.options.inputs).toBeUndefined();
  });
});

describe("POST /run", () => {
  it("200 success with the result; ?mode= overrides the body's mode", async () => {
    const n = engine.jobs.length;
    const res = await post(server.url, "/run?mode=compile", {
      script: OK,
      data: BARS,
      mode: "interpret",
      inputs: { Length: 3 },
      symbol: "BINANCE:BTCUSDT",
      realtime: { ticks: 4, last_bar: true },
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("success");
    expect(res.json.count).toBe(BARS.length);
    expect(res.json.series.plot_0).toHaveLength(BARS.length);
    const job = engine.jobs[n]!;
    expect(job.options).toMatchObject({
      mode: "compile",
      inputs: { Length: 3 },
      realtimeTicks: 4,
      realtimeLastBar: true,
    });
    expect(job.symbol).toBe("BINANCE:BTCUSDT");
  });

  it("422 SCRIPT_ERROR with error, error_kind, diagnostics, error_bar", async () => {
    const res = await post(server.url, "/run", { script: "FAIL", data: BARS });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      status: "error",
      code: "SCRIPT_ERROR",
      error: "Undeclared identifier 'foo'",
      error_kind: "check",
      error_bar: null,
    });
    expect(res.json.diagnostics[0]).toMatchObject({ line: 2, column: 1 });
  });

  it("a timed-out run is 200 with timed_out and the partial result", async () => {
    const res = await post(server.url, "/run", { script: "TIMEOUT", data: BARS, timeout_seconds: 0.01 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "success", timed_out: true, count: BARS.length / 2 });
  });

  it("bad realtime fields are INVALID_FIELD / UNKNOWN_FIELDS", async () => {
    expect((await post(server.url, "/run", { script: OK, data: BARS, realtime: { ticks: "x" } })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "realtime.ticks",
    });
    expect((await post(server.url, "/run", { script: OK, data: BARS, realtime: { tick: 2 } })).json).toMatchObject({
      code: "UNKNOWN_FIELDS",
      fields: ["realtime.tick"],
    });
  });
});

describe("POST /run/batch", () => {
  it("NO_RUNS, TOO_MANY_RUNS_IN_BATCH, INVALID_RUN, NO_DATA", async () => {
    expect((await post(server.url, "/run/batch", { runs: [], data: BARS })).json.code).toBe("NO_RUNS");
    const nine = Array.from({ length: 9 }, () => ({ script: OK }));
    const many = await post(server.url, "/run/batch", { runs: nine, data: BARS });
    expect(many.status).toBe(400);
    expect(many.json.code).toBe("TOO_MANY_RUNS_IN_BATCH");
    expect(
      (await post(server.url, "/run/batch", { runs: [{ script: OK }, { inputs: {} }], data: BARS })).json,
    ).toMatchObject({ code: "INVALID_RUN", index: 1 });
    expect((await post(server.url, "/run/batch", { runs: [{ script: OK, extra: 1 }], data: BARS })).json.code).toBe(
      "INVALID_RUN",
    );
    expect((await post(server.url, "/run/batch", { runs: [5], data: BARS })).json.code).toBe("INVALID_RUN");
    expect((await post(server.url, "/run/batch", { runs: [{ script: OK }], data: [] })).json.code).toBe("NO_DATA");
    expect(
      (await post(server.url, "/run/batch", { runs: [{ script: OK }], data: BARS, inputs: {} })).json,
    ).toMatchObject({ code: "UNKNOWN_FIELDS", fields: ["inputs"] });
  });

  it("partial failures keep order and ids; runs go to the engine in parallel", async () => {
    engine.maxInflight = 0;
    const res = await post(server.url, "/run/batch", {
      runs: [
        { id: "a", script: `${OK}// SLOW 300` },
        { script: "FAIL" },
        { id: 7, script: `${OK}// SLOW 300`, inputs: { Length: 4 }, mode: "compile" },
        { id: "e", script: "" },
      ],
      data: BARS,
    });
    expect(engine.maxInflight).toBeGreaterThanOrEqual(2);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "partial", ok: 2, count: 4 });
    expect(res.json.results.map((r: { id: unknown; status: string }) => [r.id, r.status])).toEqual([
      ["a", "success"],
      [1, "error"],
      [7, "success"],
      ["e", "error"],
    ]);
    expect(res.json.results[1]).toMatchObject({ code: "SCRIPT_ERROR", error_kind: "check" });
    expect(res.json.results[3].code).toBe("NO_SCRIPT");
    expect(res.json.results[2].mode).toBe("compile");
    const all = await post(server.url, "/run/batch", { runs: [{ script: OK }, { script: OK }], data: BARS });
    expect(all.json).toMatchObject({ status: "success", ok: 2, count: 2 });
  });
});

describe("POST /optimize", () => {
  const base = { script: STRAT, data: BARS, space: { params: [{ name: "Length", kind: "int", min: 2, max: 50 }] } };
  const codes: [string, Record<string, unknown>, string][] = [
    ["schema first", { ...base, space: [], script: "" }, "INVALID_FIELD"],
    ["NO_SCRIPT", { ...base, script: "", data: [] }, "NO_SCRIPT"],
    ["NO_DATA", { ...base, data: [], space: { params: [] } }, "NO_DATA"],
    ["NOT_A_STRATEGY", { ...base, script: OK, space: { params: [] } }, "NOT_A_STRATEGY"],
    [
      "INVALID_SPACE",
      { ...base, space: { params: [{ name: "x", kind: "int", min: 3, max: 3 }] }, objective: "bad" },
      "INVALID_SPACE",
    ],
    ["INVALID_VALIDATION", { ...base, validation: { mode: "walk-forward" }, objective: "bad" }, "INVALID_VALIDATION"],
    ["INVALID_OBJECTIVE", { ...base, objective: "sharpe", sampler: "bad" }, "INVALID_OBJECTIVE"],
    ["INVALID_SAMPLER", { ...base, sampler: "annealing" }, "INVALID_SAMPLER"],
    [
      "GRID_TOO_LARGE",
      {
        ...base,
        sampler: "grid",
        space: {
          params: [
            { name: "a", kind: "int", min: 1, max: 16 },
            { name: "b", kind: "int", min: 1, max: 16 },
          ],
        },
      },
      "GRID_TOO_LARGE",
    ],
    [
      "TOO_MANY_RUNS",
      { ...base, n_trials: 150, validation: { mode: "walk-forward", train_bars: 10, test_bars: 5 } },
      "TOO_MANY_RUNS",
    ],
  ];
  const col = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);
  const columns = { time: BARS.map((b) => b.time), open: col(30), high: col(30), low: col(30), close: col(30) };
  const badData: [string, unknown, Record<string, unknown>][] = [
    ["a string", "bars", { field: "data" }],
    ["a column missing", { ...columns, close: undefined }, { field: "data", column: "close" }],
    ["a column that is not an array", { ...columns, open: 5 }, { field: "data", column: "open" }],
    ["columns of different lengths", { ...columns, low: col(29) }, { field: "data", column: "low" }],
    ["a volume column of another length", { ...columns, volume: col(3) }, { field: "data", column: "volume" }],
    ["unknown columns", { ...columns, vwap: col(30), adj: col(30) }, { field: "data", columns: ["adj", "vwap"] }],
  ];
  it.each(badData)("columnar data: %s is INVALID_FIELD naming the field and column", async (_label, data, details) => {
    const res = await post(server.url, "/optimize", { ...base, data });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", code: "INVALID_FIELD", ...details });
  });

  it("columnar data: empty columns are NO_DATA, and a full set runs the study", async () => {
    const empty = { time: [], open: [], high: [], low: [], close: [] };
    expect((await post(server.url, "/optimize", { ...base, data: empty })).json).toMatchObject({ code: "NO_DATA" });
    const res = await post(server.url, "/optimize", { ...base, data: columns, n_trials: 3, min_trades: 0 });
    expect(res.status).toBe(200);
    expect(res.json.trials).toHaveLength(3);
  });

  it.each(codes)("%s", async (_label, body, code) => {
    const res = await post(server.url, "/optimize", body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", code });
  });

  it("200 with trials, best, engine_runs; n_trials capped at 200 with a warning", async () => {
    const res = await post(server.url, "/optimize", {
      ...base,
      n_trials: 250,
      sampler: "random",
      seed: 3,
      min_trades: 1,
      objective: "net_pnl",
      oos_every_trial: false,
      fixed_inputs: { Other: 1 },
    });
    expect(res.status).toBe(200);
    const j = res.json;
    expect(Object.keys(j)).toEqual([
      "status",
      "sampler",
      "objective",
      "validation",
      "n_trials",
      "trials",
      "best_index",
      "best_params",
      "best_is_score",
      "best_oos_score",
      "engine_runs",
      "ms",
      "warning",
      "parallelism",
      "best_result",
    ]);
    expect(j).toMatchObject({
      status: "success",
      sampler: "random",
      objective: "net_pnl",
      n_trials: 200,
      parallelism: 1,
    });
    expect(j.warning).toMatch(/capped at 200/);
    expect(j.trials).toHaveLength(200);
    expect(Object.keys(j.trials[0])).toEqual([
      "index",
      "params",
      "is_score",
      "oos_score",
      "is_stats",
      "oos_stats",
      "error",
      "engine_runs",
      "ms",
    ]);
    // The fake engine pays Length - 5 (+1 on odd bars) per trade: the best Length is the largest drawn.
    const bestLen = Math.max(...j.trials.map((t: { params: { Length: number } }) => t.params.Length));
    expect(j.best_params).toEqual({ Length: bestLen });
    expect(j.best_oos_score).not.toBeNull();
    // (the winner's full run is not a trial's engine run)
    expect(j.engine_runs).toBe(201);
    // then the winner once more, in full: every bar, the usual broker without the event log
    const last = engine.jobs[engine.jobs.length - 1]!;
    expect(last.options).toMatchObject({ mode: "auto", inputs: { Other: 1, Length: bestLen } });
    // (as the study's shared columns, not its rows: the same bars without copying 20k objects to a thread)
    expect((last.data as { time: ArrayLike<number> }).time).toHaveLength(base.data.length);
    expect(Array.from((last.data as { close: ArrayLike<number> }).close)).toEqual(
      base.data.map((b: { close: number }) => b.close),
    );
    expect(last.broker).toEqual({ record_events: false });
    expect(j.best_result.strategy.trades).toHaveLength(base.data.length);
    expect(j.best_result.events).toBeUndefined();
  });
});

describe("POST /backtest/quick", () => {
  // A rise, a fall, a rise: the fast SMA crosses the slow one both ways.
  const wave = Array.from({ length: 90 }, (_, i) => {
    const c = 100 + 20 * Math.sin(i / 9);
    return { time: 1_700_000_000_000 + i * 86_400_000, open: c - 0.2, high: c + 1, low: c - 1, close: c, volume: 1 };
  });

  it("trades the crossover, fills at the next bar's open, closes at the last close", async () => {
    const res = await post(server.url, "/backtest/quick", { data: wave, fast: 3, slow: 8 });
    expect(res.status).toBe(200);
    const { trades, equity, summary } = res.json;
    expect(equity).toHaveLength(wave.length);
    expect(trades.length).toBeGreaterThan(2);
    expect(trades.some((t: { direction: string }) => t.direction === "short")).toBe(true);
    for (const t of trades.slice(0, -1)) {
      const bar = wave.find((b) => b.time === t.entry_time)!;
      expect(t.entry_price).toBe(bar.open);
    }
    expect(trades[trades.length - 1].exit_time).toBe(wave[wave.length - 1]!.time);
    expect(trades[trades.length - 1].exit_price).toBe(wave[wave.length - 1]!.close);
    // Each entry follows a cross of the SMAs on the bar before it.
    const sma = (i: number, n: number) =>
      i < n - 1 ? NaN : wave.slice(i - n + 1, i + 1).reduce((a, b) => a + b.close, 0) / n;
    for (const t of trades) {
      const i = wave.findIndex((b) => b.time === t.entry_time) - 1;
      const up = sma(i, 3) > sma(i, 8) && sma(i - 1, 3) <= sma(i - 1, 8);
      const down = sma(i, 3) < sma(i, 8) && sma(i - 1, 3) >= sma(i - 1, 8);
      expect(t.direction === "long" ? up : down).toBe(true);
    }
    const pnl = trades.reduce((a: number, t: { pnl: number }) => a + t.pnl, 0);
    expect(summary.total_pnl).toBeCloseTo(pnl, 6);
    expect(summary.total_trades).toBe(trades.length);
    expect(equity[equity.length - 1]).toBeCloseTo(10000 + pnl, 6);
    const longOnly = await post(server.url, "/backtest/quick", {
      data: wave,
      fast: 3,
      slow: 8,
      allow_short: false,
      commission_pct: 0.1,
      slippage: 0.05,
    });
    expect(longOnly.json.trades.every((t: { direction: string }) => t.direction === "long")).toBe(true);
  });

  it("rejects bad bars and fast >= slow", async () => {
    expect((await post(server.url, "/backtest/quick", { data: [{ time: 1, open: 1 }] })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "data",
      index: 0,
    });
    expect((await post(server.url, "/backtest/quick", { data: wave, fast: 20, slow: 10 })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "fast",
    });
    expect((await post(server.url, "/backtest/quick", { data: [] })).json.code).toBe("NO_DATA");
  });
});
