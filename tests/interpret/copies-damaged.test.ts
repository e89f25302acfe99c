// A copy of the interpreter that cannot be made (src/interpret/copies.ts: a damaged copy.cjs, a host
// refusing `new Function`) leaves every program on the interpreter's own Compiler: runs go on, the same.
import { expect, it } from "vitest";
import { Compiler } from "../../src/interpret/compiler.js";
import { COPY_AFTER_RUNS, compilerFor, interpreterCopies, loadInterpreterCopies } from "../../src/interpret/copies.js";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { program, runPair } from "../compile/parity.js";

it("a damaged copy text: no copy made, every run on the module's Compiler, results as compile's", async () => {
  await loadInterpreterCopies("throw new Error('damaged copy')");
  const p = program("//@version=6\nindicator('damaged')\nplot(close * 2)");
  for (let run = 0; run <= COPY_AFTER_RUNS + 1; run++) expect(compilerFor(p)).toBe(Compiler);
  expect(interpreterCopies()).toBe(0);
  const rt = new Runtime();
  const src = "//@version=6\nindicator('after')\nx = ta.sma(close, 5)\nplot(x > open ? x : open)";
  const data = syntheticBars(200);
  for (let run = 0; run < COPY_AFTER_RUNS; run++) await rt.run(src, data, { mode: "interpret" });
  const pair = await runPair(src, data, {}, rt);
  expect(pair.interpret.error ?? null).toBeNull();
  expect(pair.difference).toBeNull();
});
