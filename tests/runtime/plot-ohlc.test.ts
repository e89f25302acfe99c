// plotcandle / plotbar in the result (service.md 1.2): `series` holds one entry per plot-family
// output, so each call is one column (its close), with no `<title>_open` ... siblings that would
// count as extra outputs and take titles a script may use itself.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

describe("plotcandle / plotbar result columns", () => {
  it("one series entry per call, holding the close; titles stay free for the script's own plots", async () => {
    const src = `//@version=6
indicator("o")
plotcandle(open, high, low, close, "c")
plotbar(open + 1, high + 1, low + 1, close + 1, "b")
plot(open, "c_open")
`;
    const data = bars(6);
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series)).toEqual(["c", "b", "c_open"]);
    expect(Object.keys(r.plot_meta)).toEqual(Object.keys(r.series));
    expect(r.series.c).toEqual(data.map((b) => b.close));
    expect(r.series.b).toEqual(data.map((b) => b.close + 1));
    // the script's own "c_open" plot keeps its title and its values
    expect(r.series.c_open).toEqual(data.map((b) => b.open));
    expect(r.plot_meta.c!.kind).toBe("plotcandle");
    expect(r.plot_meta.b!.kind).toBe("plotbar");
  });
});
