// core/lazy.ts: fields built on first read, and the accessor pairs shared by key name.
import { describe, expect, it } from "vitest";
import { lazyProperty, sharedAccessors } from "../../src/core/lazy.js";

describe("lazyProperty", () => {
  it("builds once on first read, then is a plain data property that JSON and spreads see", () => {
    let builds = 0;
    const o: { a?: number[] } = {};
    lazyProperty(o, "a", () => {
      builds++;
      return [1, 2];
    });
    expect(builds).toBe(0);
    expect(JSON.parse(JSON.stringify(o))).toEqual({ a: [1, 2] });
    expect(o.a).toEqual([1, 2]);
    expect(builds).toBe(1);
    expect(Object.getOwnPropertyDescriptor(o, "a")).toMatchObject({ value: [1, 2], writable: true, enumerable: true });
    expect({ ...o }).toEqual({ a: [1, 2] });
  });
  it("a write first drops the build; two objects share one getter but keep their own builds", () => {
    const x: { a?: string } = {};
    const y: { a?: string } = {};
    lazyProperty(x, "a", () => "x");
    lazyProperty(y, "a", () => "y");
    expect(Object.getOwnPropertyDescriptor(x, "a")!.get).toBe(Object.getOwnPropertyDescriptor(y, "a")!.get);
    x.a = "written";
    expect([x.a, y.a]).toEqual(["written", "y"]);
  });
});

describe("sharedAccessors", () => {
  it("makes a name's pair once and hands it out again, up to `max` names", () => {
    let made = 0;
    const pairOf = sharedAccessors<string>(() => {
      made++;
      return { get: () => 0, set: () => {} };
    }, 2);
    expect(pairOf("a")).toBe(pairOf("a"));
    expect(pairOf("b")).toBe(pairOf("b"));
    expect(made).toBe(2);
    // past the bound: a new pair per call, none kept
    expect(pairOf("c")).not.toBe(pairOf("c"));
    expect(made).toBe(4);
  });
});
