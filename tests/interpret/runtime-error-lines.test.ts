// A runtime error points at the innermost statement that was running (an if/for/while/switch body,
// a user function's body), not only at the top-level statement around it, in both backends.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

/** Runs in both modes (identical results), requires a runtime error, and returns its line. */
async function errorLine(src: string, n = 30): Promise<number | undefined> {
  const r = await runBoth(src, bars(n));
  expect(r.error_kind).toBe("runtime");
  const compiled = await new Runtime().run(src, bars(n), { mode: "compile" });
  expect(compiled.mode).toBe("compile");
  return r.diagnostics?.[0]?.line;
}

// line 1 is //@version=6, line 2 the declaration: the body starts on line 3
describe("runtime error positions", () => {
  it("inside an if block on the last bar", async () => {
    const src = v6(`a = array.new_float(3, 0)
if barstate.islast
    x = close * 2
    y = a.get(5)
    x += y
plot(close)`);
    expect(await errorLine(src)).toBe(6);
  });

  it("inside a for loop nested in an if", async () => {
    const src = v6(`a = array.new_float(0)
s = 0.0
if bar_index > 10
    for i = 0 to 3
        s += 1
        s += a.get(i)
plot(s)`);
    expect(await errorLine(src)).toBe(8);
  });

  it("inside a user function's body: the body's statement", async () => {
    const src = v6(`f(arr, i) =>
    v = arr.get(i)
    v * 2
a = array.new_float(2, 1)
plot(f(a, bar_index))`);
    expect(await errorLine(src)).toBe(4);
  });

  it("after a block finished, in the same top-level statement: that statement's line", async () => {
    const src = v6(`a = array.new_float(1, 0)
x = if close > 0
    1
else
    0
y = x + a.get(bar_index)
plot(y)`);
    expect(await errorLine(src)).toBe(8);
  });

  it("a runtime.error() in a switch branch", async () => {
    const src = v6(`k = bar_index % 3
switch k
    0 => k + 1
    2 =>
        z = 1
        runtime.error("two")
plot(k)`);
    const l = await errorLine(src);
    expect(l).toBe(8);
  });
});
