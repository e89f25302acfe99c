// The whole-series passes (check/hoist-plan.ts, interpret/precompute.ts) must change no result: every
// script of the repository (corpus, real-world scripts, examples, bench) runs in both modes, which
// hoist, and in the per-bar interpreter (a profiler run never precomputes), on the same random-walk
// bars, and the three agree field for field (numbers by Object.is). corpus.test.ts compares the two
// modes only, which hoist the same calls: a pass that differs from its per-bar builtin shows only here.
// Scripts that read the wall clock (timenow) are left out: two runs of them differ anyway.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { comparable, firstDifference } from "./parity.js";
import { pineFiles } from "../lang/helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");

const files = ["tests/corpus", "tests/realworld/scripts", "examples", "bench"]
  .flatMap((d) => pineFiles(join(ROOT, d)))
  .filter((f) => !/\btimenow\b/.test(readFileSync(f, "utf8")));

describe("the whole-series passes change no result: both modes equal the per-bar interpreter", () => {
  it("on every script of the repository", async () => {
    const bars = randomWalkBars(1200);
    const differ: string[] = [];
    let ran = 0;
    for (const file of files) {
      const src = readFileSync(file, "utf8");
      const rt = new Runtime();
      const perBar = await rt.run(src, bars, { mode: "interpret", profiler: true });
      if (perBar.error_kind === "check" || perBar.error_kind === "parse") continue; // libraries, other data
      ran++;
      for (const mode of ["interpret", "compile"] as const) {
        const d = firstDifference(comparable(await rt.run(src, bars, { mode })), comparable(perBar));
        if (d) differ.push(`${file.slice(ROOT.length + 1)} (${mode}): ${d.slice(0, 300)}`);
      }
    }
    expect(ran).toBeGreaterThan(500);
    expect(differ).toEqual([]);
  }, 300_000);
});
