// The interpreter's generated closures (fused statements, driver copies) are committed files: each must
// be exactly what its generator writes, or a hand edit or a generator change not re-run goes unseen.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("generated interpreter sources", () => {
  for (const script of ["scripts/gen-fused.mjs", "scripts/gen-loops.mjs"]) {
    it(`${script} --check: the committed file is the generator's output`, () => {
      const out = execFileSync(process.execPath, [resolve(root, script), "--check"], { encoding: "utf8" });
      expect(out).toMatch(/up to date/);
    });
  }
});
