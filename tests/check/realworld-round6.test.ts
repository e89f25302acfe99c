// Rules settled by the sixth real-world round (issue 17 part 2, tests/realworld/scripts/r6_*): scripts
// TradingView accepts that resin refused or ran wrong. Every case runs in both modes (runBoth).
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(8);

describe("array.every / array.some on numeric arrays", () => {
  // reference Remarks: "This function also works with arrays of int and float types, in which case zero
  // values are considered false, and all others true." builtins.json lists only array<bool>.
  it("accept array<int> and array<float>: zero is false, any other value true", async () => {
    const src =
      "//@version=6\nindicator('t')\nf = array.from(1.5, -2.0, 3.0)\ni = array.from(0, 0, 4)\nz = array.from(0.0, 0.0)\n" +
      "plot(f.every() ? 1 : 0, 'fe')\nplot(i.every() ? 1 : 0, 'ie')\nplot(i.some() ? 1 : 0, 'is')\n" +
      "plot(array.some(z) ? 1 : 0, 'zs')\nplot(array.every(array.from(true, false)) ? 1 : 0, 'be')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["fe"]).toEqual(data.map(() => 1));
    expect(r.series["ie"]).toEqual(data.map(() => 0));
    expect(r.series["is"]).toEqual(data.map(() => 1));
    expect(r.series["zs"]).toEqual(data.map(() => 0));
    expect(r.series["be"]).toEqual(data.map(() => 0));
  });
  it("still refuse an array of strings", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\ns = array.from('a')\nplot(s.every() ? 1 : 0)\n", data);
    expect(r.error).toMatch(/array\.every/);
  });
});
