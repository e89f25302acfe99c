// /optimize over columns without a row object per bar (src/server/engine.ts columnStudyData): on an
// engine whose runs read the study's bars only as columns (engine.trial), a columnar body's study is
// measured and sliced through a stand-in for its rows (optimize/bars.ts columnStandIn). The answer
// must be the one real rows give (on an engine without trial), whatever the body's form (rows given
// are read into columns too) and the validation's slices; bars the Runtime refuses keep real rows, so
// each trial reports them as a run does.

import { afterEach, describe, expect, it } from "vitest";
import { base64Column } from "../../src/cli/bench-optimize.js";
import { sourceColumns } from "../../src/optimize/bars.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { columnStudyData, createInProcessEngine, evaluateJob } from "../../src/server/engine.js";
import type { RunningServer } from "../../src/server/node/host.js";
import { CROSS_STRATEGY } from "../optimize/cross-strategy.js";
import { post, start } from "./helpers.js";

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close(1);
  server = null;
});

const SPACE = {
  params: [
    { name: "Fast", kind: "int", min: 2, max: 10, step: 1 },
    { name: "Slow", kind: "int", min: 8, max: 30, step: 2 },
  ],
};
const KEYS = ["time", "open", "high", "low", "close", "volume"] as const;

/** The answer without its timings and run ids. */
const untimed = (json: unknown): string =>
  JSON.stringify(json)
    .replace(/"([a-z_]*ms)":[-0-9.e]+/g, '"$1":0')
    .replace(/"run_id":"[^"]*"/g, "");

describe("/optimize over columns", () => {
  it("columns, numbers or base64, answer as rows do, holdout and walk-forward included; no rows are made", async () => {
    const engine = createInProcessEngine();
    server = await start({ engine });
    // the answer over real rows: an engine without trial runs each trial on its rows
    const rowServer = await start({ engine: createInProcessEngine((job) => evaluateJob(job)) });
    const rows = randomWalkBars(1200, { seed: 5 });
    const columns = Object.fromEntries(KEYS.map((k) => [k, rows.map((r) => r[k] as number)]));
    const base64 = Object.fromEntries(KEYS.map((k) => [k, base64Column(columns[k]!)]));
    try {
      for (const validation of [
        { mode: "in-sample" },
        { mode: "holdout", holdout_frac: 0.3 },
        { mode: "walk-forward", train_bars: 500, test_bars: 200, step_bars: 200 },
      ]) {
        const body = { script: CROSS_STRATEGY, space: SPACE, n_trials: 10, seed: 4, min_trades: 1, validation };
        const want = await post(rowServer.url, "/optimize", { ...body, data: rows });
        expect(want.json.status).toBe("success");
        expect(want.json.best_result.strategy.trades.length).toBeGreaterThan(0);
        // (rows too go through the stand-in on an engine with trial: columnStudyData reads them)
        for (const data of [rows, columns, base64]) {
          const got = await post(server.url, "/optimize", { ...body, data });
          expect(untimed(got.json)).toBe(untimed(want.json));
        }
      }
    } finally {
      await rowServer.close(1);
    }
    // the stand-in: the bars' length, no element, its columns remembered
    const standIn = columnStudyData(engine, columns)!;
    expect(standIn).toHaveLength(1200);
    expect(Object.keys(standIn)).toEqual([]);
    expect(sourceColumns(standIn)).toBe(columns);
  }, 60_000);

  it("rows where they are needed: an engine without trial, bars the Runtime refuses", async () => {
    const rows = randomWalkBars(50, { seed: 1 });
    const columns = Object.fromEntries(KEYS.map((k) => [k, rows.map((r) => r[k] as number)]));
    const engine = createInProcessEngine();
    // rows given are read into columns as well (the route lets the row objects go): a stand-in for them
    const rowsStandIn = columnStudyData(engine, rows);
    expect(rowsStandIn).toHaveLength(rows.length);
    const read = sourceColumns(rowsStandIn!) as unknown as Record<string, Float64Array>;
    for (const k of KEYS) expect(Array.from(read[k]!)).toEqual(columns[k]);
    expect(
      columnStudyData(
        createInProcessEngine((job) => evaluateJob(job)),
        columns,
      ),
    ).toBeNull();
    expect(columnStudyData(engine, { ...columns, time: columns.time!.slice(1) })).toBeNull();
    // refused bars: every trial reports the Runtime's error, as with rows
    server = await start({ engine });
    const bad: Record<string, number[]> = {
      ...columns,
      close: columns.close!.map((x, i) => (i === 7 ? Number.NaN : x)),
      time: [...columns.time!],
    };
    bad.time[9] = bad.time[8]!;
    expect(columnStudyData(engine, bad)).toBeNull();
    const body = { script: CROSS_STRATEGY, space: SPACE, n_trials: 3, seed: 1, validation: { mode: "in-sample" } };
    const fromColumns = await post(server.url, "/optimize", { ...body, data: bad });
    const fromRows = await post(server.url, "/optimize", {
      ...body,
      data: bad.time.map((time, i) => Object.fromEntries(KEYS.map((k) => [k, k === "time" ? time : bad[k]![i]]))),
    });
    expect(fromColumns.status).toBe(fromRows.status);
    expect(fromRows.json.trials?.[0]?.error ?? fromRows.json.message).toMatch(/bar|time/i);
    expect(untimed(fromColumns.json)).toBe(untimed(fromRows.json));
  }, 60_000);
});
