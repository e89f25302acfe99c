// The interpreter's copies (src/interpret/copies.ts): a program that runs again and again takes its
// own copy of the closure-making modules, bundled by scripts/bundle-interpreter.mjs. The tests here bundle
// the copy from src/ the same way (the suite runs from src/, where no copy.cjs sits beside copies.ts),
// and check that a copy runs every script exactly as the compile backend does, that the copy shares
// the engine's classes, and that the bundle imports nothing COPY_DEPS does not hold (the run-count
// rule and the turns: copies-turns.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Compiler } from "../../src/interpret/compiler.js";
import {
  COPY_AFTER_RUNS,
  COPY_DEPS,
  evaluateCopy,
  interpreterCopies,
  loadInterpreterCopies,
  MAX_COPIES,
} from "../../src/interpret/copies.js";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { bundleInterpreterCopy } from "../../scripts/bundle-interpreter.mjs";
import { runPair } from "../compile/parity.js";

const ROOT = join(import.meta.dirname, "..", "..");
let bundled: { text: string; externals: string[] };

beforeAll(async () => {
  bundled = await bundleInterpreterCopy(join(ROOT, "src", "interpret", "compiler.ts"));
  await loadInterpreterCopies(bundled.text);
}, 60_000);

describe("the interpreter's copies", () => {
  it("the copy imports only modules COPY_DEPS holds, and exports a Compiler of its own", () => {
    expect(bundled.externals.length).toBeGreaterThan(5);
    expect(bundled.externals.filter((x) => !(x in COPY_DEPS))).toEqual([]);
    const copy = evaluateCopy(bundled.text, 99);
    expect(typeof copy).toBe("function");
    expect(copy).not.toBe(Compiler);
  });

  // every bench script and the corpus's first scripts, each a program of its own, run in copies from
  // their third run (more of them than MAX_COPIES: copies are shared in turn too)
  const corpus = readdirSync(join(ROOT, "tests", "corpus"))
    .filter((f) => f.endsWith(".pine"))
    .sort()
    .slice(0, 30)
    .map((f): [string, string] => [f, join(ROOT, "tests", "corpus", f)]);
  const bench = readdirSync(join(ROOT, "bench"))
    .filter((f) => f.endsWith(".pine"))
    .map((f): [string, string] => [`bench/${f}`, join(ROOT, "bench", f)]);
  const data = syntheticBars(300);
  for (const [name, file] of [...bench, ...corpus]) {
    it(`${name}: interpreted in a copy, identical to compile`, async () => {
      const src = readFileSync(file, "utf8");
      const rt = new Runtime();
      for (let run = 0; run < COPY_AFTER_RUNS; run++) await rt.run(src, data, { mode: "interpret" });
      const p = await runPair(src, data, {}, rt);
      if (p.interpret.error_kind === "check" || p.interpret.error_kind === "parse") return;
      expect(p.difference).toBeNull();
      expect(p.compile.error ?? null).toBe(p.interpret.error ?? null);
    });
  }

  // (the first tests to take copies: a program that did not reach its copy, say a run whose program
  // object is made anew, would leave this at 0)
  it("those programs took copies: MAX_COPIES made, then taken in turn", () => {
    expect(bench.length + corpus.length).toBeGreaterThan(MAX_COPIES);
    expect(interpreterCopies()).toBe(MAX_COPIES);
  });

  it("a copy's runtime error is the engine's: the same error, bar and diagnostics as compile's", async () => {
    const data = syntheticBars(50);
    const rt = new Runtime();
    const src = "//@version=6\nindicator('y')\na = array.new_float(0)\nplot(array.get(a, 3))";
    for (let run = 0; run < COPY_AFTER_RUNS; run++) await rt.run(src, data, { mode: "interpret" });
    // (an error of another class than the engine's PineRuntimeError would come back as an internal error)
    const p = await runPair(src, data, {}, rt);
    expect(p.interpret.error_kind).toBe("runtime");
    expect(p.interpret.error).toMatch(/out of bounds/);
    expect(p.interpret.error_bar).toBe(0);
    expect(p.difference).toBeNull();
  });
});
