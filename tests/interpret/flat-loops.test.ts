// The interpreter's flattened statement-level loops and ifs (issue 18, session 8): a `for` on a
// numeric counter calls its body's statements itself (up to four written out, more through an
// array) and reads constant / slot / slot±constant bounds in place; an if with one-statement
// branches calls the branch itself, sets break/continue in place and compares a numeric condition's
// operands in place. Each shape must give exactly what the compile backend gives (runBoth): bounds
// re-evaluated every iteration, na bounds, steps, break/continue at every position, error lines, and
// the loop limit at any nesting.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

describe("flat for loops agree with the compile backend", () => {
  it("bounds: constants, variables, variable plus/minus a constant, expressions, floats, steps, na", async () => {
    const r = await runBoth(
      v6(`int n = 5
float fl = 2.5
int none = na
float a = 0.0
for i = 0 to n - 1
    a += i
for i = 1 to n + 2
    a += i * 0.5
for i = n to 0
    a -= i
for i = fl to 7.5 by 1.5
    a += i
for i = 0 to math.min(n, bar_index)
    a += 1
for i = 0 to none
    a += 100
for i = none to 3
    a += 100
for i = 10 to 0 by 3
    a += i
for i = 0 to 4 by -2
    a += i
plot(a, "a")`),
      bars(12),
    );
    expect(r.error).toBeUndefined();
    expect(r.series.a!.every((v) => typeof v === "number")).toBe(true);
  });

  it("the end bound is re-evaluated every iteration (v6), also when it turns na", async () => {
    const r = await runBoth(
      v6(`int n = 3
int seen = 0
for i = 0 to n - 1
    seen += 1
    if i == 1
        n += 2
float m = 4.0
int seen2 = 0
for i = 0 to m + 0
    seen2 += 1
    if i == 2
        m := na
plot(seen, "seen")
plot(seen2, "seen2")`),
      bars(5),
    );
    expect(r.series.seen![0]).toBe(5);
    expect(r.series.seen2![0]).toBe(3);
  });

  it("bodies of one to six statements, break and continue at each position", async () => {
    // one function per shape: n counters, an `if i == 3` break/continue after counter `at`
    const fns: string[] = [];
    for (let n = 1; n <= 6; n++)
      for (let at = 0; at < n; at++)
        for (const what of ["break", "continue"]) {
          const id = `${n}_${at}_${what}`;
          const counters = Array.from({ length: n }, (_, k) => `s${k}`);
          const body = counters.flatMap((c, k) => [
            `        ${c} += 1`,
            ...(k === at ? [`        if i == 3`, `            ${what}`] : []),
          ]);
          fns.push(
            [
              `f${id}() =>`,
              ...counters.map((c) => `    int ${c} = 0`),
              `    for i = 0 to 5`,
              ...body,
              `    ${counters.map((c, k) => `${c} * ${10 ** k}`).join(" + ")}`,
              `plot(f${id}(), "p${id}")`,
            ].join("\n"),
          );
        }
    const r = await runBoth(v6(fns.join("\n")), bars(3));
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(fns.length);
    // three statements, the break/continue after the second: s0 and s1 ran 4 (6) times, s2 3 (5)
    expect(r.series.p3_1_break![0]).toBe(4 + 40 + 300);
    expect(r.series.p3_1_continue![0]).toBe(6 + 60 + 500);
  });

  it("nested flat loops, a loop in a function, and a loop whose value is read", async () => {
    await runBoth(
      v6(`f(n) =>
    float t = 0.0
    for i = 0 to n
        for j = i to n
            if j == 4
                break
            t += j - i
    t
x = for i = 0 to 3
    i * 2.0
int total = 0
for i = 0 to 3
    for j = 0 to 3
        if (i + j) % 2 == 0
            continue
        total += 1
plot(f(6), "f")
plot(x, "x")
plot(total, "total")`),
      bars(8),
    );
  });

  it("a runtime error in a flat body gets its statement's line; one in a bound, the loop's", async () => {
    const line = async (src: string) => {
      const r = await runBoth(src, bars(5));
      expect(r.error_kind).toBe("runtime");
      return r.diagnostics?.[0]?.line;
    };
    // line 3 is the first body line
    const body = v6(`a = array.new_float(2, 0)
float s = 0.0
for i = 0 to 3
    s += 1
    s += 2
    s += 3
    s += a.get(i)
plot(s)`);
    expect(await line(body)).toBe(9);
    const long = v6(`a = array.new_float(2, 0)
float s = 0.0
for i = 0 to 3
    s += 1
    s += 2
    s += 3
    s += 4
    s += 5
    s += a.get(i)
plot(s)`);
    expect(await line(long)).toBe(11);
    const bound = v6(`a = array.new_float(2, 0)
float s = 0.0
for i = 0 to a.get(5)
    s += 1
plot(s)`);
    expect(await line(bound)).toBe(5);
  });
});

/** Script lines counting the realtime ticks (`ticks`) and those on which `differs` held (`off`). */
const tickCheck = (differs: string) => `// varip counters see every tick, not only the bar's last one
varip int ticks = 0
varip int off = 0
if barstate.isrealtime
    ticks += 1
    if ${differs}
        off += 1
plot(ticks, "ticks")
plot(off, "off")`;

/** Runs a tickCheck script with the last bar in 4 realtime ticks: every tick counted, none differing. */
async function everyTickAgrees(src: string, data: ReturnType<typeof bars>): Promise<void> {
  const r = await new Runtime().run(src, data, { mode: "interpret", realtimeLastBar: true, realtimeTicks: 4 });
  expect(r.error).toBeUndefined();
  expect(r.series.ticks!.at(-1)).toBe(4);
  expect(r.series.off!.at(-1)).toBe(0);
}

describe("the fused math.max/min statement reads the bar as the script sees it", () => {
  it("on realtime ticks, offset 0 is the tick's value, as the value form reads it", async () => {
    const src = v6(`float mx = low
float mn = high
float mx2 = low
float mn2 = high
for i = 0 to 3
    mx := math.max(mx, high[i])
    mn := math.min(mn, low[i])
    mx2 := math.max(mx2, high[i]) + 0
    mn2 := math.min(mn2, low[i]) + 0
${tickCheck("mx != mx2 or mn != mn2")}`);
    // the last bar's high and low are reached on later ticks and are the window's extremes
    const data = bars(12);
    const last = data.at(-1)!;
    last.high = Math.max(...data.map((b) => b.high)) + 5;
    last.low = Math.min(...data.map((b) => b.low)) - 5;
    await everyTickAgrees(src, data);
  });
});

describe("a bar column read at a loop counter reads the bar as the script sees it", () => {
  it("on realtime ticks, offset 0 of every column is the tick's value (while, for, an expression)", async () => {
    const src = v6(`int k = 0
float c = na
float o = na
float h = na
float l = na
float v = na
float t = na
float x = na
while k < 1
    c := close[k] + 0
    o := open[k] + 0
    h := high[k] + 0
    l := low[k] + 0
    v := volume[k] + 0
    t := time[k] + 0
    // an offset expression rather than a variable (the column reader taking an offset closure)
    x := close[k * 1] + 0
    k += 1
float sum = 0.0
for i = 0 to 0
    sum += close[i] - low[i]
${tickCheck("c != close or o != open or h != high or l != low or v != volume or t != time or sum != close - low or x != close")}`);
    const data = bars(12);
    const last = data.at(-1)!;
    last.high += 3;
    last.low -= 3;
    await everyTickAgrees(src, data);
    // and the same values as the compile backend on history
    await runBoth(src.replace(/varip/g, "var"), data);
  });
});

describe("flat ifs agree with the compile backend", () => {
  it("comparisons of numbers with na operands, bool variables and other conditions", async () => {
    const ops = ["<", "<=", ">", ">=", "==", "!="];
    const cases = ops
      .map(
        (op, k) => `int c${k} = 0
for i = 0 to 6
    if close[i] ${op} open[i]
        c${k} += 1
    if d ${op} d[1]
        c${k} += 10
    if d ${op} 1.0
        c${k} += 100
plot(c${k}, "c${k}")`,
      )
      .join("\n");
    const r = await runBoth(
      v6(`float d = bar_index % 3 == 0 ? na : math.round(close - open)
bool up = close > open
int u = 0
if up
    u += 1
else
    u -= 1
if str.length(syminfo.ticker) > 0
    u += 5
${cases}
plot(u, "u")`),
      bars(30),
    );
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(ops.length + 1);
  });

  it("break / continue / statement / empty branches", async () => {
    await runBoth(
      v6(`int a = 0
int b = 0
int c = 0
for i = 0 to 9
    if i == 7
        break
    else
        a += 1
    if i % 2 == 0
        continue
    b += 1
    if i > 3
        c += i
plot(a, "a")
plot(b, "b")
plot(c, "c")`),
      bars(4),
    );
  });

  it("an error inside a branch gets the branch statement's line", async () => {
    const r = await runBoth(
      v6(`a = array.new_float(1, 0)
float s = 0.0
if close > 0
    s := a.get(3)
else
    s := 1
plot(s)`),
      bars(3),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.diagnostics?.[0]?.line).toBe(6);
  });
});

describe("flat for-in and while loops agree with the compile backend", () => {
  it("for-in over arrays (value and index forms), maps and matrices, break and continue", async () => {
    const r = await runBoth(
      v6(`a = array.from(3.0, 1.0, na, 4.0, 1.0, 5.0, 9.0)
float s = 0.0
int cnt = 0
for x in a
    if na(x)
        continue
    s += x
    cnt += 1
    if x > 4
        break
float w = 0.0
for [i, x] in a
    w += i
    w += nz(x)
    w += 1
    w += 1
    w += 1
    if i == 4
        break
m = map.new<string, float>()
m.put("a", 1.0)
m.put("b", 2.0)
m.put("c", 3.0)
float ms = 0.0
for [k, v] in m
    if k == "b"
        continue
    ms += v
mx = matrix.new<float>(3, 2, 1.5)
float rows = 0.0
for row in mx
    rows += row.sum()
    if rows > 5
        break
float[] none = na
for x in none
    s += 1000
plot(s, "s")
plot(cnt, "cnt")
plot(w, "w")
plot(ms, "ms")
plot(rows, "rows")`),
      bars(4),
    );
    expect(r.error).toBeUndefined();
    expect(r.series.s![0]).toBe(3 + 1 + 4 + 1 + 5);
    expect(r.series.cnt![0]).toBe(5);
    expect(r.series.ms![0]).toBe(4);
    expect(r.series.rows![0]).toBe(6);
  });

  it("while loops with one to six statements, break and continue", async () => {
    const r = await runBoth(
      v6(`int i = 0
int s = 0
while i < 10
    i += 1
    if i % 3 == 0
        continue
    s += i
    if s > 20
        break
int j = 0
int t = 0
while j < 5
    j += 1
    t += 1
    t += 1
    t += 1
    t += 1
    t += 1
int k = 0
while k < 3
    k += 1
plot(s, "s")
plot(t, "t")
plot(k, "k")`),
      bars(3),
    );
    expect(r.series.s![0]).toBe(1 + 2 + 4 + 5 + 7 + 8);
    expect(r.series.t![0]).toBe(25);
    expect(r.series.k![0]).toBe(3);
  });

  it("errors in for-in and while bodies get the statement's line", async () => {
    const line = async (src: string) => {
      const r = await runBoth(src, bars(3));
      expect(r.error_kind).toBe("runtime");
      return r.diagnostics?.[0]?.line;
    };
    expect(
      await line(
        v6(`a = array.from(1.0, 2.0)
b = array.new_float(0)
float s = 0.0
for x in a
    s += x
    s += b.get(0)
plot(s)`),
      ),
    ).toBe(8);
    expect(
      await line(
        v6(`b = array.new_float(0)
int i = 0
float s = 0.0
while i < 3
    i += 1
    s += 1
    s += 2
    s += 3
    s += 4
    s += b.get(i)
plot(s)`),
      ),
    ).toBe(12);
  });
});

describe("the loop limit still stops flat loops at any nesting", () => {
  for (const mode of ["interpret", "compile"] as const) {
    it(`a while inside a for-in inside a for (${mode})`, async () => {
      const src = v6(`a = array.from(1.0, 2.0, 3.0)
float y = 0.0
for k = 0 to 1000000
    for x in a
        int i = 0
        while i < 1000
            i += 1
            y += x
plot(y)`);
      const r = await new Runtime().run(src, bars(5), { mode });
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.mode).toBe(mode);
    }, 30_000);

    it(`nested flat loops in a function in an if (${mode})`, async () => {
      const src = v6(`f(n) =>
    float x = 0.0
    for i = 0 to n
        for j = 0 to n - 1
            if j > n
                break
            x += 1
    x
float y = 0.0
if close > 0
    for k = 0 to 1000000
        y += f(1000)
plot(y)`);
      const r = await new Runtime().run(src, bars(5), { mode });
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.mode).toBe(mode);
    }, 30_000);
  }
});
