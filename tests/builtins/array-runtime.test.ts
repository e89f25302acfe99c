// The libs builtins through the public Runtime (both modes): runtime errors, views, generics.
import { describe, expect, it } from "vitest";
import { runBoth, v6 } from "../helpers/run-both.js";

async function logs(body: string): Promise<string[]> {
  const r = await runBoth(
    v6(
      `if barstate.islast\n${body
        .split("\n")
        .map((l) => "    " + l)
        .join("\n")}`,
    ),
    undefined,
  );
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r.logs.map((l) => l.message);
}

describe("libs builtins through the Runtime", () => {
  it("array slice is a view; negative indices", async () => {
    const out = await logs(`a = array.from(1, 2, 3, 4)
s = array.slice(a, 1, 3)
array.set(s, 0, 20)
log.info("{0} {1} {2}", array.join(a, ","), array.get(a, -1), s.size())`);
    expect(out).toEqual(["1,20,3,4 4 2"]);
  });

  it("array.concat of an array with itself appends its elements once (it aborted the process)", async () => {
    const out = await logs(`a = array.from(1, 2, 3)
array.concat(a, a)
b = array.from(5, 6, 7)
s = array.slice(b, 1, 3)
array.concat(b, s)
log.info("{0} | {1}", array.join(a, ","), array.join(b, ","))`);
    expect(out).toEqual(["1,2,3,1,2,3 | 5,6,7,6,7"]);
  });

  it("matrix.concat of a matrix with itself appends its rows once, map.put_all of a map with itself keeps it", async () => {
    const out = await logs(`m = matrix.new<float>(2, 2, 1.0)
m.set(1, 1, 4.0)
matrix.concat(m, m)
mp = map.new<string, float>()
mp.put("a", 1.0)
map.put_all(mp, mp)
log.info("{0} {1} {2} {3}", m.rows(), m.columns(), m.get(3, 1), mp.size())`);
    expect(out).toEqual(["4 2 4 1"]);
  });

  it("an out-of-bounds index stops the run with TradingView's message", async () => {
    const r = await runBoth(v6(`a = array.new_float(2)\nx = array.get(a, 5)\nplot(x)`));
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toContain("Index 5 is out of bounds, array size is 2.");
  });

  it("str.format, str.tostring and math.sum per call site", async () => {
    const r = await runBoth(
      v6(`s = math.sum(bar_index, 3)
if barstate.islast
    log.info(str.format("{0,number,#.00} {1}", s, str.tostring(1/3)))`),
    );
    expect(r.error).toBeUndefined();
    expect(r.logs.map((l) => l.message)).toEqual(["54.00 0.3333333333"]);
  });

  it("map keeps insertion order and put returns the previous value", async () => {
    const out = await logs(`m = map.new<string, int>()
m.put("b", 1)
m.put("a", 2)
old = m.put("b", 3)
log.info("{0} {1} {2}", m.keys(), m.values(), old)`);
    expect(out).toEqual(["[b, a] [3, 2] 1"]);
  });

  it("matrix methods", async () => {
    const out = await logs(`m = matrix.new<float>(2, 2, 0)
m.set(0, 0, 4.0)
m.set(0, 1, 7.0)
m.set(1, 0, 2.0)
m.set(1, 1, 6.0)
log.info("{0} {1}", m.det(), m.inv().get(0, 0))`);
    expect(out).toEqual(["10 0.6"]);
  });

  it("colors", async () => {
    const r = await runBoth(v6(`plot(color.t(color.new(color.red, 30)))\nplot(color.r(color.rgb(10, 20, 30)))`));
    expect(r.error).toBeUndefined();
    const cols = Object.values(r.series);
    expect(cols[0]![0]).toBe(30);
    expect(cols[1]![0]).toBe(10);
  });

  // Float arrays print as [0.0, 0.0]: the element type of array.new<float> reaches the builtin
  // through site.typeArgs (see src/builtins/array/index.ts).
  it("array.new<float> prints its elements as floats (site.typeArgs from the checker)", async () => {
    const out = await logs(`a = array.new<float>(2, 0)\nlog.info("{0}", a)`);
    expect(out).toEqual(["[0.0, 0.0]"]);
  });
});
