import { describe, expect, it } from "vitest";
import {
  createRng,
  gridAxis,
  gridSize,
  OptimizeError,
  parseSpace,
  sampleAxis,
  createGridSampler,
  spaceFromInputs,
} from "../../src/optimize/index.js";

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof OptimizeError ? e.code : "other";
  }
  return undefined;
}

describe("parseSpace", () => {
  it.each([
    ["not an object", 5],
    ["no params", { params: [] }],
    ["missing bounds", { params: [{ name: "a", kind: "int", min: 1 }] }],
    ["min >= max", { params: [{ name: "a", kind: "float", min: 2, max: 2 }] }],
    ["empty choices", { params: [{ name: "a", kind: "categorical", choices: [] }] }],
    [
      "duplicate names",
      {
        params: [
          { name: "a", kind: "bool" },
          { name: "a", kind: "bool" },
        ],
      },
    ],
    ["unknown kind", { params: [{ name: "a", kind: "decimal", min: 0, max: 1 }] }],
    ["negative step", { params: [{ name: "a", kind: "float", min: 0, max: 1, step: -1 }] }],
  ])("rejects %s with INVALID_SPACE", (_label, raw) => {
    expect(code(() => parseSpace(raw))).toBe("INVALID_SPACE");
  });

  it("accepts every kind", () => {
    const s = parseSpace({
      params: [
        { name: "n", kind: "int", min: 2, max: 10, step: 2 },
        { name: "f", kind: "float", min: 0, max: 1 },
        { name: "b", kind: "bool" },
        { name: "c", kind: "categorical", choices: ["EMA", "SMA"] },
      ],
    });
    expect(s.map((p) => p.kind)).toEqual(["int", "float", "bool", "categorical"]);
  });
});

describe("axes", () => {
  it("random draws of stepped axes land on the step grid and stay in bounds", () => {
    const [p] = parseSpace({ params: [{ name: "x", kind: "float", min: 0.5, max: 2, step: 0.25 }] });
    const rng = createRng(7);
    for (let i = 0; i < 500; i++) {
      const v = sampleAxis(p!, rng) as number;
      expect(v).toBeGreaterThanOrEqual(0.5);
      expect(v).toBeLessThanOrEqual(2);
      expect(Math.abs((v - 0.5) / 0.25 - Math.round((v - 0.5) / 0.25))).toBeLessThan(1e-9);
    }
  });

  it("grid axes: step grid, 8 points for a float without step, capped at 16", () => {
    const s = parseSpace({
      params: [
        { name: "a", kind: "int", min: 2, max: 10, step: 2 },
        { name: "b", kind: "float", min: 0, max: 1 },
        { name: "c", kind: "int", min: 1, max: 100 },
      ],
    });
    expect(gridAxis(s[0]!)).toEqual([2, 4, 6, 8, 10]);
    expect(gridAxis(s[1]!)).toHaveLength(8);
    expect(gridAxis(s[1]!)[0]).toBe(0);
    expect(gridAxis(s[1]!)[7]).toBe(1);
    const c = gridAxis(s[2]!);
    expect(c).toHaveLength(16);
    expect(c[0]).toBe(1);
    expect(c[15]).toBe(100);
    expect(gridSize(s)).toBe(5 * 8 * 16);
  });

  it("grid walks the Cartesian product with the last axis fastest, then draws randomly", () => {
    const s = parseSpace({
      params: [
        { name: "a", kind: "int", min: 1, max: 2 },
        { name: "b", kind: "categorical", choices: ["x", "y", "z"] },
      ],
    });
    const g = createGridSampler(s, createRng(1));
    const seen = Array.from({ length: 6 }, () => g.propose([]));
    expect(seen).toEqual([
      { a: 1, b: "x" },
      { a: 1, b: "y" },
      { a: 1, b: "z" },
      { a: 2, b: "x" },
      { a: 2, b: "y" },
      { a: 2, b: "z" },
    ]);
    const after = g.propose([]);
    expect([1, 2]).toContain(after.a);
    expect(["x", "y", "z"]).toContain(after.b);
  });

  it("a default space comes from int/float inputs with minval and maxval", () => {
    const space = spaceFromInputs([
      { id: "a", type: "int", title: "Fast", default: 5, value: 5, min: 2, max: 20, step: 1 },
      { id: "b", type: "float", title: "Mult", default: 2, value: 2, min: 0.5, max: 4 },
      { id: "c", type: "int", title: "NoBounds", default: 5, value: 5 },
      { id: "d", type: "bool", title: "Flag", default: true, value: true },
    ]);
    expect(space).toEqual([
      { name: "Fast", kind: "int", min: 2, max: 20, step: 1 },
      { name: "Mult", kind: "float", min: 0.5, max: 4 },
    ]);
  });
});
