// Libraries (service.md 1.4): import Namespace/Name/Version [as alias] resolved from `libraries`.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

const LIB = `//@version=6
library("MyLib")
export type Pt
    float x = 0
export f(float a) => a * 2
export const float K = 3.5
export enum E
    a
    b
helper(x) => x + 1
export g(float a) => helper(a) + K
export counter() =>
    var n = 0
    n += 1
    n
`;
const libraries = [{ namespace: "user", name: "MyLib", version: 1, source: LIB }];
const data = bars(4);

describe("libraries", () => {
  it("functions, constants, types, enums and per-call-site state under the alias", async () => {
    const src = v6(
      "import user/MyLib/1 as ml\nml.Pt p = ml.Pt.new(1)\nplot(ml.f(close) + ml.K + p.x)\nplot(ml.g(1))\nplot(ml.E.b == ml.E.b ? 1 : 0)\nplot(ml.counter() * 10 + ml.counter())",
    );
    const r = await runBoth(src, data, { libraries });
    expect(r.error, r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(data.map((b) => b.close * 2 + 3.5 + 1));
    expect(r.series.plot_1).toEqual(Array(4).fill(5.5));
    expect(r.series.plot_2).toEqual(Array(4).fill(1));
    expect(r.series.plot_3).toEqual([11, 22, 33, 44]);
  });
  it("the alias defaults to the library name", async () => {
    const r = await runBoth(v6("import user/MyLib/1\nplot(MyLib.f(2))"), data, { libraries });
    expect(r.series.plot_0).toEqual(Array(4).fill(4));
  });
  it("an unresolved import is a check error naming it", async () => {
    const r = await runBoth(v6("import user/Other/2 as o\nplot(close)"), data, { libraries });
    expect(r.error_kind).toBe("check");
    expect(r.error).toMatch(/user\/Other\/2/);
  });
  it("more than 32 libraries is an error", async () => {
    const many = Array.from({ length: 33 }, (_, i) => ({ ...libraries[0]!, version: i + 1 }));
    const r = await runBoth(v6("plot(close)"), data, { libraries: many });
    expect(r.error_kind).toBe("check");
  });
});
