// An in-sample /optimize study's best_result taken from the winner's own trial (src/server/kept-winner.ts)
// instead of a second run: the answer must be the one the full re-run gives (timings aside), through
// the in-process engine and through the built worker pool (the trial's inputs and scoring cross to the
// threads), on several strategies, samplers and body forms; studies whose trials do not run the whole
// bars (holdout, walk-forward) still re-run the winner.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { base64Column } from "../../src/cli/bench-optimize.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { createInProcessEngine, type Engine } from "../../src/server/engine.js";
import { dropKept, keptCount } from "../../src/server/kept-winner.js";
import type { RunningServer } from "../../src/server/node/host.js";
import { CROSS_STRATEGY } from "../optimize/cross-strategy.js";
import { ensureDist, ROOT } from "./dist.js";
import { post, start } from "./helpers.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close(1);
  dropKept();
});

/** The answer without its timings and run ids. */
const untimed = (json: unknown): string =>
  JSON.stringify(json)
    .replace(/"([a-z_]*ms)":[-0-9.e]+/g, '"$1":0')
    .replace(/"run_id":"[^"]*"/g, "");

const KEYS = ["time", "open", "high", "low", "close", "volume"] as const;
const rows = randomWalkBars(3000, { seed: 11 });
const columns = Object.fromEntries(KEYS.map((k) => [k, rows.map((r) => r[k] as number)]));
const base64 = Object.fromEntries(KEYS.map((k) => [k, base64Column(columns[k]!)]));
const bracket = readFileSync(join(ROOT, "bench", "ema_cross_bracket.pine"), "utf8");

const STUDIES = [
  {
    script: CROSS_STRATEGY,
    space: {
      params: [
        { name: "Fast", kind: "int", min: 2, max: 10, step: 1 },
        { name: "Slow", kind: "int", min: 8, max: 30, step: 2 },
      ],
    },
  },
  {
    script: bracket,
    space: {
      params: [
        { name: "Fast length", kind: "int", min: 5, max: 15, step: 1 },
        { name: "Stop (ATR)", kind: "float", min: 0.5, max: 3, step: 0.5 },
      ],
    },
    fixed_inputs: { "Slow length": 30 },
  },
];

/** An engine's runJson and keptJson answers counted. */
function counted(engine: Engine): { engine: Engine; runs: () => number; kept: () => number } {
  let runs = 0;
  let kept = 0;
  const runJson = engine.runJson!.bind(engine);
  const keptJson = engine.keptJson?.bind(engine);
  return {
    engine: Object.assign(Object.create(engine) as Engine, {
      runJson: (...a: Parameters<typeof runJson>) => (runs++, runJson(...a)),
      ...(keptJson
        ? {
            keptJson: async (...a: Parameters<typeof keptJson>) => {
              const r = await keptJson(...a);
              if (r !== null) kept++;
              return r;
            },
          }
        : {}),
    }),
    runs: () => runs,
    kept: () => kept,
  };
}

/** Every study as the re-run answers it (an engine without keptJson) and as `engine` does. */
async function compare(engine: ReturnType<typeof counted>, forms: readonly unknown[]): Promise<void> {
  const reference = createInProcessEngine();
  delete (reference as Partial<Engine>).keptJson;
  const want = await start({ engine: reference });
  const got = await start({ engine: engine.engine });
  servers.push(want, got);
  let studies = 0;
  for (const study of STUDIES) {
    for (const [sampler, seed] of [
      ["random", 3],
      ["tpe", 8],
    ] as const) {
      for (const data of forms) {
        const body = { ...study, data, n_trials: 12, sampler, seed, min_trades: 1, validation: { mode: "in-sample" } };
        const a = await post(want.url, "/optimize", body);
        const b = await post(got.url, "/optimize", body);
        expect(a.json.status).toBe("success");
        expect(a.json.best_result.strategy.trades.length).toBeGreaterThan(0);
        expect(untimed(b.json)).toBe(untimed(a.json));
        studies++;
      }
    }
  }
  // every in-sample winner came from its trial, none was run again
  expect([engine.kept(), engine.runs()]).toEqual([studies, 0]);
  // holdout and walk-forward trials do not run the whole bars: the winner is run again
  for (const validation of [
    { mode: "holdout", holdout_frac: 0.3 },
    { mode: "walk-forward", train_bars: 1200, test_bars: 600, step_bars: 600 },
  ]) {
    const body = { ...STUDIES[0], data: rows, n_trials: 8, seed: 2, min_trades: 1, validation };
    const a = await post(want.url, "/optimize", body);
    const b = await post(got.url, "/optimize", body);
    expect(untimed(b.json)).toBe(untimed(a.json));
  }
  expect([engine.kept(), engine.runs()]).toEqual([studies, 2]);
}

describe("an in-sample study's winner taken from its trial", () => {
  it("in process: the answers of the full re-run, rows, number columns and base64", async () => {
    await compare(counted(createInProcessEngine()), [rows, columns, base64]);
    expect(keptCount()).toBe(0);
  }, 120_000);

  it("on the built worker pool: the answers of the full re-run", async () => {
    ensureDist();
    const { createNodeEngine } = (await import(
      pathToFileURL(join(ROOT, "dist", "server", "node", "pool.js")).href
    )) as typeof import("../../src/server/node/pool.js");
    const pool = createNodeEngine(2);
    expect(pool.kind).toBe("threads");
    try {
      await compare(counted(pool), [base64]);
    } finally {
      await pool.close?.();
    }
  }, 180_000);
});
