// The interpreter's fused statement shapes (issue 18: interpret within 3x of compile): a
// statement-level for/if run as void blocks, and `x := math.max/min(x, col[i])` as one closure that
// reads the column at the loop counter and writes the slot. Each must give exactly what the compile
// backend gives (runBoth), na offsets, offset 0 (the bar itself), early bars, ties, break/continue
// and the history-limit error included.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const v6 = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;

describe("fused statements agree with the compile backend", () => {
  it("math.max/min of a variable and col[i] stored into the variable, na and early bars included", async () => {
    const r = await runBoth(
      v6(`float mx = close
float mn = na
float lo = low
for i = 0 to 12
    mx := math.max(mx, high[i])
    mn := math.min(mn, low[i])
    lo := math.min(lo, low[i])
int k = na
float viaNa = 0.0
viaNa := math.max(viaNa, close[k])
plot(mx, "mx")
plot(mn, "mn")
plot(lo, "lo")
plot(viaNa, "viaNa")`),
      bars(40),
    );
    expect(r.error).toBeUndefined();
    // early bars reach past the first bar (na, so the min is na); later ones are numbers
    const lo = r.series.lo!;
    expect(lo[0]).toBeNull();
    expect(lo.slice(20).every((v) => typeof v === "number")).toBe(true);
    expect(r.series.viaNa!.every((v) => v === null)).toBe(true);
  });
  it("void for/if bodies keep break, continue and nested control flow", async () => {
    await runBoth(
      v6(`int ups = 0
int seen = 0
for i = 0 to 9
    if close[i] > open[i]
        ups += 1
    else if i > 6
        break
    else
        continue
    seen += 1
float s = 0.0
for j = 10 to 0 by 2
    if j == 4
        continue
    s += j
plot(ups, "ups")
plot(seen, "seen")
plot(s, "s")`),
      bars(30),
    );
  });
  it("a loop whose value is read still returns its last value", async () => {
    await runBoth(
      v6(`f(n) =>
    for i = 0 to n
        math.max(close, high[i])
plot(f(3), "f")
x = for i = 0 to 2
    i * 2.0
plot(x, "x")`),
      bars(20),
    );
  });
  it("`x += v[i] * w` on a numeric history at the loop counter, in a function and at the top level", async () => {
    const r = await runBoth(
      v6(`wavg(src, n) =>
    float num = 0.0
    float den = 0.0
    for i = 0 to n - 1
        w = n - i
        num += src[i] * w
        den += w
    num / den
float d = bar_index % 4 == 0 ? na : close - open
float acc = 0.0
float wt = 1.5
for i = 0 to 6
    acc += d[i] * wt
int k = na
float viaNa = 0.0
viaNa += d[k] * wt
plot(wavg(close, 5), "wavg")
plot(wavg(d, 3), "wavgNa")
plot(acc, "acc")
plot(viaNa, "viaNa")`),
      bars(40),
    );
    expect(r.series.wavg!.slice(10).every((v) => typeof v === "number")).toBe(true);
    expect(r.series.acc!.every((v) => v === null)).toBe(true);
  });
  it("a negative history offset fails the same way in both", async () => {
    const r = await runBoth(
      v6(`float d = close
float acc = 0.0
float wt = 2.0
for i = 0 to -1
    acc += d[i] * wt
plot(acc)`),
      bars(5),
    );
    expect(r.error).toBeDefined();
  });
  it("an offset past the history limit fails the same way in both", async () => {
    const r = await runBoth(
      v6(`float mx = close
for i = 10000 to 10001
    mx := math.max(mx, high[i])
plot(mx)`),
      bars(5),
    );
    expect(r.error).toBeDefined();
  });
});
