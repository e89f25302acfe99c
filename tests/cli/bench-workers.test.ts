// `resin bench`'s workers rows (src/cli/bench-workers.ts): whole `resin optimize` processes on one
// worker and on two, timed round by round, which must find the same winner.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchWorkers, formatWorkers, REPO_DIR } from "../../src/cli/bench-workers.js";
import { ensureDist } from "../server/dist.js";

describe("bench workers rows", () => {
  it("times resin optimize on 1 and 2 workers and reads each process's CPU", () => {
    ensureDist();
    expect(REPO_DIR).toBe(join(import.meta.dirname, "..", "..") + "/");
    const lines: string[] = [];
    const rows = benchWorkers(
      { dir: REPO_DIR, bars: [600], trials: 12, samplers: ["random"], workers: 2, rounds: 2 },
      (line) => lines.push(line),
    );
    expect(rows).toHaveLength(1);
    const [r] = rows;
    expect(r).toMatchObject({ sampler: "random", bars: 600, trials: 12, rounds: 2, workers: 2 });
    for (const t of [r!.one, r!.many]) {
      expect(t.wall.min).toBeGreaterThan(0);
      expect(t.wall.max).toBeGreaterThanOrEqual(t.wall.median);
      // a process loads the engine and runs 12 trials: some CPU, counted where /proc is
      if (process.platform === "linux") expect(t.cpu.min).toBeGreaterThan(0);
    }
    expect(r!.speedUp).toBeCloseTo(r!.one.wall.median / r!.many.wall.median, 10);
    expect(lines).toHaveLength(1);
    expect(formatWorkers(rows).split("\n")).toHaveLength(3);
  });
});
