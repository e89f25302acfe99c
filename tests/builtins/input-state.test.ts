import { describe, expect, it } from "vitest";
import { functions } from "../../src/builtins/input/index.js";
import type { CallSite } from "../../src/builtins/types.js";
import { makeCtx } from "./drawing-helpers.js";

// The generated loop and the interpreter's kept closures read an input site's state in optimised
// code: every input kind's state has one hidden class, the same fields in the same order, whatever
// its value (issue 18: a literal `{ value }` had its field widened in a later run, deoptimising the loop).
describe("input call-site state", () => {
  it("has one class and one field order for every kind and value", () => {
    const ctx = makeCtx(3);
    const calls: [string, unknown[]][] = [
      ["input.int", [10]],
      ["input.float", [1.5]],
      ["input.bool", [true]],
      ["input.string", ["x"]],
      ["input", [2]],
      ["input.source", [100]],
    ];
    const states = calls.map(([name, args], id) => {
      const site: CallSite = { id, state: undefined };
      functions[name]!.impl(ctx, args, site);
      return site.state as object;
    });
    expect(states.map((s) => (s as { value: unknown }).value)).toEqual([10, 1.5, true, "x", 2, "close"]);
    for (const s of states) {
      expect(Object.getPrototypeOf(s)).toBe(Object.getPrototypeOf(states[0]));
      expect(Object.keys(s)).toEqual(["value", "source"]);
    }
    expect(Object.getPrototypeOf(states[0])).not.toBe(Object.prototype);
  });
});
