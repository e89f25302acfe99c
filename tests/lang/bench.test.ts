// benchParse returns sane figures (timing itself is not asserted: machines differ).
import { describe, expect, it } from "vitest";
import { benchParse, generateScript } from "../../src/lang/bench.js";
import { parse } from "../../src/lang/index.js";

describe("benchParse", () => {
  it("parses a clean generated 1,000-line script", () => {
    const src = generateScript(1000);
    expect(src.split("\n").length - 1).toBe(1000);
    expect(parse(src).diagnostics).toEqual([]);
  });

  it("returns the line count and a positive finite median", () => {
    const r = benchParse(3);
    expect(r.lines).toBe(1000);
    expect(Number.isFinite(r.ms)).toBe(true);
    expect(r.ms).toBeGreaterThan(0);
  });
});
