// Input overrides in compile mode (issue 18 part 3): every script in the tree that declares inputs
// runs with overrides that differ from its defaults, in interpret and in compile mode, and the two
// results must be identical (numbers by Object.is). Compile must really run unless the script also
// falls back without overrides (request.*, ...): overrides never force interpret. The overrides are
// worked out from the script's own input records (result.inputs): the next int or float within
// minval/maxval, the other bool, another option, another source.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InputRecord } from "../../src/core/result.js";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { runPair } from "./parity.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** Every .pine file under `dir` (recursively). */
function pineFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pineFiles(p));
    else if (e.name.endsWith(".pine")) out.push(p);
  }
  return out.sort();
}

const files = ["bench", "examples", "tests/corpus", "tests/realworld/scripts", "tests/strategy", "tests/conformance"]
  .flatMap((d) => pineFiles(join(ROOT, d)))
  .filter((f) => /\binput\s*(\.\w+)?\s*\(/.test(readFileSync(f, "utf8")));

const SOURCES = ["close", "open", "high", "low", "hl2", "hlc3", "ohlc4", "hlcc4", "volume"];

/** An override for one declared input that differs from its default, or undefined for kinds left alone. */
function otherValue(r: InputRecord): unknown {
  const d = r.default;
  if (Array.isArray(r.options) && r.options.length > 1) return r.options.find((o) => o !== d);
  switch (r.type) {
    case "bool":
      return typeof d === "boolean" ? !d : undefined;
    case "int":
    case "float": {
      if (typeof d !== "number") return undefined;
      const step = typeof r.step === "number" && r.step > 0 ? r.step : r.type === "int" ? 1 : Math.abs(d) / 4 || 0.5;
      const up = d + step;
      if (typeof r.max !== "number" || up <= r.max) return up;
      const down = d - step;
      return typeof r.min !== "number" || down >= r.min ? down : undefined;
    }
    case "source":
      return SOURCES.find((s) => s !== d);
    default:
      return undefined;
  }
}

const data = syntheticBars(300);
let tested = 0;

describe("compile with input overrides agrees with interpret on every script that declares inputs", () => {
  for (const file of files) {
    const name = file.slice(ROOT.length + 1);
    it(name, async () => {
      const src = readFileSync(file, "utf8");
      const rt = new Runtime();
      const defaults = await rt.run(src, data, { mode: "interpret" });
      if (defaults.error_kind === "check" || defaults.error_kind === "parse") return; // libraries, other data
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
  }
  it("compiled a good share of them with overrides", () => {
    expect(tested).toBeGreaterThan(files.length / 2);
  });
});
