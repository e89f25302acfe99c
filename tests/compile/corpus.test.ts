// Every corpus script and bench/*.pine (bench10.pine among them) run in interpret and in compile mode
// on the same synthetic bars and must give identical results: series, events, strategy, drawings,
// alerts, logs (numbers compared with Object.is, so NaN vs NaN and -0 matter). Scripts that the
// interpreter cannot run on synthetic bars (libraries, foreign requests) are skipped, and the test
// reports which scripts compiled.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { runPair } from "./parity.js";
import { Runtime } from "../../src/runtime/index.js";

const ROOT = join(import.meta.dirname, "..", "..");
const files: [string, string][] = [
  ...readdirSync(join(ROOT, "tests", "corpus"))
    .filter((f) => f.endsWith(".pine"))
    .map((f): [string, string] => [f, join(ROOT, "tests", "corpus", f)]),
  ...readdirSync(join(ROOT, "bench"))
    .filter((f) => f.endsWith(".pine"))
    .map((f): [string, string] => [`bench/${f}`, join(ROOT, "bench", f)]),
];

const data = syntheticBars(400);
const compiled: string[] = [];
const fellBack: string[] = [];

describe("interpret and compile agree on every corpus and bench script", () => {
  for (const [name, file] of files) {
    it(name, async () => {
      const src = readFileSync(file, "utf8");
      const p = await runPair(src, data);
      if (p.interpret.error_kind === "check" || p.interpret.error_kind === "parse") return; // needs libraries or other data
      expect(p.difference).toBeNull();
      expect(p.compile.error ?? null).toBe(p.interpret.error ?? null);
      if (p.compile.mode === "compile") compiled.push(name);
      else {
        // a fallback must say why (auto reports it)
        const auto = await new Runtime().run(src, data, { mode: "auto" });
        expect(auto.auto_backend).toBe("interpret");
        expect(auto.compile_fallback_reason).toBeTruthy();
        fellBack.push(`${name}: ${auto.compile_fallback_reason}`);
      }
    });
  }
  it("compiles nearly every script", () => {
    console.log(`compiled ${compiled.length}, interpret fallback ${fellBack.length}\n${fellBack.join("\n")}`);
    expect(compiled.length).toBeGreaterThan(fellBack.length * 10);
  });
});
