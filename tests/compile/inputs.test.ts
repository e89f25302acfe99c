// Input overrides in compile mode (issue 18 part 3): every script in the tree that declares inputs
// runs with overrides that differ from its defaults, in interpret and in compile mode, and the two
// results must be identical (numbers by Object.is). Compile must really run unless the script also
// falls back without overrides (request.*, ...): overrides never force interpret. The overrides are
// worked out from the script's own input records (result.inputs): the next int or float within
// minval/maxval, the other bool, another option, another source.
import { describe, expect, it } from "vitest";
import { runPair } from "./parity.js";
import { eachInputScript, INPUT_DATA as data, INPUT_SCRIPTS, otherValue } from "./input-scripts.js";

let tested = 0;

describe("compile with input overrides agrees with interpret on every script that declares inputs", () => {
  eachInputScript(async ({ src, rt, defaults }) => {
    const inputs: Record<string, unknown> = {};
    for (const r of defaults.inputs) {
      const v = otherValue(r);
      if (v !== undefined && r.title) inputs[r.title] = v;
    }
    if (Object.keys(inputs).length === 0) return;
    const p = await runPair(src, data, { inputs }, rt);
    expect(p.difference, JSON.stringify(inputs)).toBeNull();
    expect(p.compile.error ?? null).toBe(p.interpret.error ?? null);
    if (p.compile.mode !== "compile") {
      const plain = await rt.run(src, data, { mode: "compile" });
      expect(plain.mode, `falls back only with overrides: ${p.compile.compile_fallback_reason}`).toBe("interpret");
    } else tested++;
  });
  it("compiled a good share of them with overrides", () => {
    expect(tested).toBeGreaterThan(INPUT_SCRIPTS.length / 2);
  });
});
