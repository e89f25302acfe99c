// Random input overrides against the per-bar interpreter (issue 18): the whole-series passes take
// their lengths and sources from the inputs, and a branch an input fixes for the run is hoisted
// under its guard (check/hoist-plan.ts), so each input set decides what runs as a pass and what per
// bar. Every script of the tree that declares inputs runs with three seeded random sets (options,
// bools, sources, numbers within minval/maxval), in compile and in interpret mode, and both must
// give what the per-bar interpreter gives (a profiler run never precomputes), field for field with
// Object.is. inputs.test.ts checks one set a script in the two modes, and that compile really runs.
import { describe, expect, it } from "vitest";
import { comparable, firstDifference } from "./parity.js";
import { eachInputScript, INPUT_DATA as data, INPUT_SCRIPTS, randomValue } from "./input-scripts.js";

const SETS = 3;

/** A uniform [0, 1) generator seeded by `text` (the script's path: each script its own draws). */
function seeded(text: string): () => number {
  let s = 2166136261;
  for (let i = 0; i < text.length; i++) s = Math.imul(s ^ text.charCodeAt(i), 16777619) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

let sets = 0;

describe("random input overrides: compile and interpret give what the per-bar interpreter gives", () => {
  eachInputScript(async ({ name, src, rt, defaults }) => {
    const random = seeded(name);
    for (let k = 0; k < SETS; k++) {
      // about half of the inputs overridden in each set
      const inputs: Record<string, unknown> = {};
      for (const r of defaults.inputs) {
        if (!r.title || random() < 0.4) continue;
        const v = randomValue(r, random);
        if (v !== undefined) inputs[r.title] = v;
      }
      if (Object.keys(inputs).length === 0) continue;
      const perBar = comparable(await rt.run(src, data, { mode: "interpret", profiler: true, inputs }));
      for (const mode of ["compile", "interpret"] as const) {
        const r = await rt.run(src, data, { mode, inputs });
        expect(firstDifference(comparable(r), perBar), `${mode} ${JSON.stringify(inputs)}`).toBeNull();
      }
      sets++;
    }
  });
  it("ran a random set on most of them", () => {
    expect(sets).toBeGreaterThan(INPUT_SCRIPTS.length);
  });
});
