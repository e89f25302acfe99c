import { describe, expect, it } from "vitest";
import { alphaOf, constants, fromGradient, PALETTE, transpOf } from "../../src/builtins/color/index.js";
import { colorToString, packColor } from "../../src/core/values.js";
import { caller } from "./math-helpers/ctx.js";

const call = caller();

describe("color.*", () => {
  it("v6 palette from the reference manual", () => {
    expect(colorToString(constants["color.red"])).toBe("#F23645");
    expect(colorToString(constants["color.blue"])).toBe("#2962FF");
    expect(colorToString(constants["color.teal"])).toBe("#089981");
    expect(Object.keys(constants)).toHaveLength(17);
    expect(Object.keys(PALETTE)).toContain("fuchsia");
  });
  it("transparency <-> alpha", () => {
    expect(alphaOf(0)).toBe(255);
    expect(alphaOf(50)).toBe(128);
    expect(alphaOf(100)).toBe(0);
    for (let t = 0; t <= 100; t++) expect(transpOf(packColor(0, 0, 0, alphaOf(t)))).toBe(t);
  });
  it("color.new / rgb / r g b t", () => {
    const c = call("color.new", constants["color.red"], 50);
    expect(colorToString(c)).toBe("#F2364580");
    expect(call("color.t", c)).toBe(50);
    expect(call("color.r", c)).toBe(242);
    const rgb = call("color.rgb", 255, 128.4, -3, 20);
    expect([call("color.r", rgb), call("color.g", rgb), call("color.b", rgb), call("color.t", rgb)]).toEqual([
      255, 128, 0, 20,
    ]);
    expect(call("color.new", NaN, 10)).toBeNaN();
    expect(call("color.r", NaN)).toBeNaN();
  });
  it("from_gradient clamps and blends", () => {
    const black = packColor(0, 0, 0);
    const white = packColor(255, 255, 255);
    expect(fromGradient(50, 0, 100, black, white)).toBe(packColor(128, 128, 128));
    expect(fromGradient(-5, 0, 100, black, white)).toBe(black);
    expect(fromGradient(500, 0, 100, black, white)).toBe(white);
    expect(fromGradient(NaN, 0, 100, black, white)).toBeNaN();
  });
});
