// The scripts of the tree that declare inputs, and override values for their inputs: shared by the
// input-override tests (inputs.test.ts: one set a script; input-sets.test.ts: seeded random sets).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "vitest";
import type { InputRecord, RunResult } from "../../src/core/result.js";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { pineFiles } from "../lang/helpers.js";

export const ROOT = join(import.meta.dirname, "..", "..");

/** Every script of the tree that declares an input. */
export const INPUT_SCRIPTS = [
  "bench",
  "examples",
  "tests/corpus",
  "tests/realworld/scripts",
  "tests/strategy",
  "tests/conformance",
]
  .flatMap((d) => pineFiles(join(ROOT, d)))
  .filter((f) => /\binput\s*(\.\w+)?\s*\(/.test(readFileSync(f, "utf8")));

/** The bars every input script runs on. */
export const INPUT_DATA = syntheticBars(300);

/**
 * A test per input script: `body` gets its source, a Runtime and the run with its defaults (a
 * library, or a script written for other data, whose default run fails its check, is passed over).
 */
export function eachInputScript(
  body: (s: { name: string; src: string; rt: Runtime; defaults: RunResult }) => Promise<void>,
): void {
  for (const file of INPUT_SCRIPTS) {
    const name = file.slice(ROOT.length + 1);
    it(name, async () => {
      const src = readFileSync(file, "utf8");
      const rt = new Runtime();
      const defaults = await rt.run(src, INPUT_DATA, { mode: "interpret" });
      if (defaults.error_kind === "check" || defaults.error_kind === "parse") return;
      await body({ name, src, rt, defaults });
    });
  }
}

export const SOURCES = ["close", "open", "high", "low", "hl2", "hlc3", "ohlc4", "hlcc4", "volume"];

/** An override for one declared input that differs from its default, or undefined for kinds left alone. */
export function otherValue(r: InputRecord): unknown {
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

/**
 * A value for one declared input drawn with `random` (uniform in [0, 1)): one of its options, either
 * bool, a source, or a number within minval/maxval (without them, within a third and three times the
 * default), on the step's grid; undefined for kinds left alone.
 */
export function randomValue(r: InputRecord, random: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const d = r.default;
  if (Array.isArray(r.options) && r.options.length > 1) return pick(r.options);
  switch (r.type) {
    case "bool":
      return random() < 0.5;
    case "int":
    case "float": {
      if (typeof d !== "number") return undefined;
      const lo = typeof r.min === "number" ? r.min : r.type === "int" ? Math.max(1, Math.floor(d / 3)) : d / 3;
      const hi = typeof r.max === "number" ? Math.min(r.max, Math.max(lo, d * 3 + 1)) : d * 3 + 1;
      let v = lo + random() * (hi - lo);
      if (r.type === "int") v = Math.round(v);
      else if (typeof r.step === "number" && r.step > 0) v = lo + Math.round((v - lo) / r.step) * r.step;
      return Math.min(hi, Math.max(lo, v));
    }
    case "source":
      return pick(SOURCES);
    default:
      return undefined;
  }
}
