// core/shapes: the arrays made in a fixed V8 elements kind read exactly like the plain arrays they replace.
import { describe, expect, it } from "vitest";
import { objectArray, objectSlots } from "../../src/core/shapes.js";

// The arrays are made in a V8 elements kind (not observable from JavaScript); what callers rely on is
// that they read exactly like the plain arrays they replace.
describe("core/shapes", () => {
  it("objectArray is an empty array that grows like []", () => {
    const a = objectArray<{ x: number } | string | null>();
    expect(a).toEqual([]);
    a.push({ x: 1 }, "s", null);
    expect(a).toEqual([{ x: 1 }, "s", null]);
    expect(objectArray()).not.toBe(objectArray());
  });

  it("objectSlots reads undefined at every index, like new Array(n)", () => {
    const a = objectSlots(5);
    expect(a.length).toBe(5);
    for (let i = 0; i < 5; i++) expect(a[i]).toBeUndefined();
  });
});
