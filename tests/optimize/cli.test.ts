// `resin optimize` in-process: usage errors (exit 2), script errors (exit 1), a real search (exit 0).

import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runSubcommand } from "../../src/cli/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { parseCsvBars } from "../../src/core/bars.js";
import { toBarArray } from "../../src/optimize/index.js";
import { CROSS_STRATEGY } from "./cross-strategy.js";

const command = (argv: string[]) => runSubcommand("optimize", argv);

const dir = mkdtempSync(join(tmpdir(), "resin-opt-"));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const STRATEGY = file("cross.pine", CROSS_STRATEGY);
const INDICATOR = file("ind.pine", '//@version=6\nindicator("x")\nplot(close, "c")\n');

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
});
afterEach(() => vi.restoreAllMocks());

describe("resin optimize", () => {
  it("usage errors exit 2", async () => {
    expect(await command([])).toBe(2);
    expect(await command([STRATEGY, "--trials", "x"])).toBe(2);
    expect(await command([STRATEGY, "--trials", "0"])).toBe(2);
    expect(await command([STRATEGY, "--bogus"])).toBe(2);
    expect(await command([STRATEGY, "--space", "{nope"])).toBe(2);
    expect(
      await command([STRATEGY, "--sampler", "annealing", "--space", '[{"name":"Fast","kind":"int","min":2,"max":9}]']),
    ).toBe(2);
    expect(err.join("\n")).toMatch(/INVALID_SAMPLER/);
    expect(await command([STRATEGY, "--space", '{"params":[]}'])).toBe(2);
    expect(await command(["--help"])).toBe(0);
    expect(out.join("\n")).toMatch(/Usage: resin optimize/);
  });

  it("repeated --data: a study over several data sets, each trial scored on every set", async () => {
    const csv = (n: number, drift: number) =>
      [
        "time,open,high,low,close,volume",
        ...Array.from({ length: n }, (_, i) => {
          const c = 100 + Math.sin(i / 4) * 5 + i * drift;
          return `${1_700_000_000_000 + i * 3_600_000},${c - 0.3},${c + 1},${c - 1},${c},100`;
        }),
      ].join("\n");
    const a = file("a.csv", csv(120, 0.05));
    const b = file("b.csv", csv(160, -0.02));
    const args = [STRATEGY, "--data", a, "--data", b, "--trials", "8", "--seed", "2", "--min-trades", "0"];
    expect(await command([...args, "--aggregate", "min", "--json"])).toBe(0);
    const res = JSON.parse(out.join("\n"));
    expect(res.trials).toHaveLength(8);
    for (const t of res.trials.filter((x: { error: string | null }) => !x.error)) {
      expect(t.sets).toHaveLength(2);
      expect(t.is_score).toBe(Math.min(t.sets[0].is_score, t.sets[1].is_score));
    }
    // the winner re-run in full on each file's bars: what `resin run --data <file> --inputs` gives
    expect(res.best_params).not.toBeNull();
    expect(res.best_results).toHaveLength(2);
    expect(res.best_result).toEqual(res.best_results[0].result);
    for (const [k, text] of [csv(120, 0.05), csv(160, -0.02)].entries()) {
      const full = res.best_results[k].result;
      const direct = await new Runtime("CHART", {}).run(CROSS_STRATEGY, toBarArray(parseCsvBars(text)), {
        mode: "auto",
        inputs: res.best_params,
      });
      expect(full.count).toBe(k ? 160 : 120);
      expect(full.events).toBeUndefined();
      expect(full.strategy).toEqual(JSON.parse(JSON.stringify(direct.strategy)));
    }
    out.length = 0;
    expect(await command(args)).toBe(0);
    expect(out.join("\n")).toMatch(
      /best re-run on data set 0 \(all 120 bars\): .*\n.*best re-run on data set 1 \(all 160 bars\): /,
    );
    out.length = 0;
    expect(await command([...args, "--aggregate", "median"])).toBe(2);
    expect(err.join("\n")).toMatch(/INVALID_DATASETS/);
  });

  it("--remote over several data sets: the winner is re-run locally on every set, as a local study does", async () => {
    const csv = (n: number, phase: number) =>
      [
        "time,open,high,low,close,volume",
        ...Array.from({ length: n }, (_, i) => {
          const c = 100 + Math.sin(i / 5 + phase) * 6;
          return `${1_700_000_000_000 + i * 3_600_000},${c - 0.3},${c + 1},${c - 1},${c},100`;
        }),
      ].join("\n");
    const args = [
      STRATEGY,
      ...["--data", file("r1.csv", csv(140, 0)), "--data", file("r2.csv", csv(100, 2))],
      ...["--trials", "6", "--seed", "4", "--min-trades", "0", "--json"],
    ];
    expect(await command(args)).toBe(0);
    const local = JSON.parse(out.join(""));
    expect(local.best_results).toHaveLength(2);
    // a stand-in edge worker on 127.0.0.1 that answers /studies with the same study's lean result
    const { best_result: _r, best_results: _rs, ...lean } = local;
    const server = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url === "/studies") {
        req.resume();
        req.on("end", () => res.end(JSON.stringify({ status: "success", id: "s1" })));
      } else
        res.end(
          JSON.stringify({
            status: "success",
            state: "done",
            completed: 6,
            total: 6,
            best_index: lean.best_index,
            result: lean,
          }),
        );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      out.length = 0;
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await command([...args, "--remote", url])).toBe(0);
      const remote = JSON.parse(out.join(""));
      const ids = (r: { result: object | null }) => ({ ...r, result: { ...r.result, run_id: 0, profile: 0 } });
      expect(remote.best_results.map(ids)).toEqual(local.best_results.map(ids));
      expect(remote.best_result.strategy).toEqual(local.best_result.strategy);
      expect(remote.best_results[1].result.count).toBe(100);
    } finally {
      server.close();
    }
  });

  it("--remote: a URL that is not http(s) exits 2, an unreachable worker exits 1, both with their codes", async () => {
    expect(await command([STRATEGY, "--bars", "60", "--remote", "ftp://example.test"])).toBe(2);
    expect(err.join("\n")).toMatch(/INVALID_URL/);
    expect(await command([STRATEGY, "--bars", "60", "--remote", "http://127.0.0.1:9"])).toBe(1);
    expect(err.join("\n")).toMatch(/REMOTE_UNREACHABLE/);
    expect(await command([STRATEGY, "--parallelism", "0"])).toBe(2);
  });

  it("--workers caps the threads; the result is the default's", async () => {
    const args = [STRATEGY, "--trials", "6", "--seed", "5", "--bars", "200", "--min-trades", "1", "--json"];
    const study = async (extra: string[]) => {
      out.length = 0;
      expect(await command([...args, ...extra])).toBe(0);
      const r = JSON.parse(out.join(""));
      return {
        ...r,
        ms: 0,
        trials: r.trials.map((t: object) => ({ ...t, ms: 0 })),
        best_result: { ...r.best_result, run_id: 0, profile: 0 },
      };
    };
    expect(await study(["--workers", "2"])).toEqual(await study([]));
    expect(await command([STRATEGY, "--workers", "0"])).toBe(2);
  });

  it("an unreadable file exits 2, an indicator exits 1", async () => {
    expect(await command([join(dir, "missing.pine"), "--space", '[{"name":"a","kind":"bool"}]'])).toBe(2);
    expect(await command([INDICATOR, "--space", '[{"name":"a","kind":"bool"}]'])).toBe(1);
    expect(err.join("\n")).toMatch(/NOT_A_STRATEGY/);
  });

  it("draws a progress bar on a TTY (stderr, @clack/prompts), ending with the trial count", async () => {
    const writes: string[] = [];
    const tty = process.stderr.isTTY;
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true });
    try {
      expect(await command([STRATEGY, "--trials", "3", "--seed", "1", "--bars", "60", "--min-trades", "1"])).toBe(0);
    } finally {
      Object.defineProperty(process.stderr, "isTTY", { value: tty, configurable: true });
      spy.mockRestore();
    }
    // clack redraws on a timer (so how many intermediate frames appear depends on speed); the bar
    // hides the cursor, ends with the final count, and gives the cursor back.
    expect(writes[0]).toBe("\u001b[?25l");
    expect(writes.some((w) => /3 trials, best /.test(w))).toBe(true);
    expect(writes.at(-1)).toBe("\u001b[?25h");
    expect(out.join("\n")).toMatch(/sampler random, objective composite, validation holdout, 3 trials/);
  });

  it("searches the inputs' default space with walk-forward windows derived from --bars", async () => {
    const code = await command([
      STRATEGY,
      "--trials",
      "4",
      "--seed",
      "2",
      "--bars",
      "120",
      "--validation",
      "walk-forward",
      "--min-trades",
      "1",
      "--json",
    ]);
    expect(err.join("\n")).toBe("");
    expect(code).toBe(0);
    const res = JSON.parse(out.join(""));
    expect(res.validation).toMatchObject({ mode: "walk-forward", train_bars: 80, test_bars: 20, step_bars: 20 });
    expect(res.trials).toHaveLength(4);
    expect(Object.keys(res.trials[0].params).sort()).toEqual(["Fast", "Slow"]);
    expect(res.engine_runs).toBe(4 * (2 + 1));
  });

  it("--json carries the winner re-run in full over all the bars: what a run with its inputs gives", async () => {
    const args = [STRATEGY, "--trials", "5", "--seed", "3", "--bars", "300", "--min-trades", "1", "--json"];
    expect(await command(args)).toBe(0);
    const res = JSON.parse(out.join(""));
    expect(res.best_params).not.toBeNull();
    const full = res.best_result;
    expect(full.count).toBe(300);
    expect(full.events).toBeUndefined();
    expect(full.inputs.find((i: { title: string }) => i.title === "Fast").value).toBe(res.best_params.Fast);
    // the run `resin run --inputs` (the library Runtime) makes with the winner's inputs
    const direct = await new Runtime("CHART", {}).run(CROSS_STRATEGY, randomWalkBars(300), {
      mode: "auto",
      inputs: res.best_params,
    });
    expect(full.strategy.trades.length).toBeGreaterThan(0);
    expect(full.strategy).toEqual(JSON.parse(JSON.stringify(direct.strategy)));
    // the trial's in-sample stats are a slice of the same run: its trades are among the full run's
    expect(res.trials[res.best_index].is_stats.trades).toBeLessThanOrEqual(full.strategy.trades.length);
    out.length = 0;
    expect(await command(args.slice(0, -1))).toBe(0);
    expect(out.join("\n")).toMatch(/best re-run on all 300 bars: \d+ closed trades, \d+ open, net profit /);
  });
});
