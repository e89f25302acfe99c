// The interpreter's session-9 loop paths (issue 18): copies of the statement drivers handed out per
// loop and per if (drivers.generated.ts), the `to` bound read once when the body cannot change it,
// the break/continue flag unread for bodies that cannot raise it (writes.ts), and the window-extreme
// kernel (`mx := math.max(mx, high[i])` bodies run in one closure, loop-kernels.ts). Each must give
// exactly what the compile backend gives (runBoth), errors and budgets included.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { kernelBuilds } from "../../src/interpret/loop-kernels.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

/** runBoth, and how many loops took each kernel in it (the interpret run builds them; compile does not). */
async function runCounting(...args: Parameters<typeof runBoth>) {
  const before = { ...kernelBuilds };
  const r = await runBoth(...args);
  return { r, extreme: kernelBuilds.extreme - before.extreme, countedIf: kernelBuilds.countedIf - before.countedIf };
}

describe("window-extreme loops agree with the compile backend", () => {
  it("max/min of every column, bounds up and down, steps, offsets 0 and beyond the first bar", async () => {
    const { r, extreme, countedIf } = await runCounting(
      v6(`int n = 6
float mx = close
float mn = close
float vx = volume
float ox = open
float tx = time
float lx = low
for i = 0 to n - 1
    mx := math.max(mx, high[i])
    mn := math.min(mn, low[i])
float mx2 = close
for i = n to 0
    mx2 := math.max(mx2, close[i])
float mx3 = close
for i = 1 to 9 by 2
    mx3 := math.max(mx3, open[i])
    vx := math.max(vx, volume[i])
for i = 0 to 3
    ox := math.min(ox, open[i])
    tx := math.max(tx, time[i])
    lx := math.max(lx, low[i])
float seed = na
for i = 0 to 2
    seed := math.max(seed, high[i])
float neg = close
for i = -3 to 1
    neg := math.max(neg, high[i])
float chain = low
float other = high
for i = 0 to 4
    chain := math.max(other, high[i])
    other := math.min(chain, low[i])
plot(mx, "mx")
plot(mn, "mn")
plot(mx2, "mx2")
plot(mx3, "mx3")
plot(vx, "vx")
plot(ox, "ox")
plot(tx, "tx")
plot(lx, "lx")
plot(seed, "seed")
plot(neg, "neg")
plot(chain, "chain")
plot(other, "other")`),
      bars(15),
    );
    expect(r.error).toBeUndefined();
    // every one of the seven loops ran as the kernel
    expect([extreme, countedIf]).toEqual([7, 0]);
    // na seeds stay na; a negative offset reads na, so `neg` is na from the first negative offset on
    expect(r.series.seed!.every((v) => v === null || Number.isNaN(v))).toBe(true);
    expect(r.series.neg!.every((v) => v === null || Number.isNaN(v))).toBe(true);
    // bar 10: the highest high of bars 5..10
    const data = bars(15);
    expect(r.series.mx![10]).toBe(Math.max(data[10]!.close, ...data.slice(5, 11).map((b) => b.high)));
  });

  it("five statements and more (the kernel's general form)", async () => {
    const names = ["a", "b", "c", "d", "e", "f"];
    const { extreme } = await runCounting(
      v6(`${names.map((x) => `float ${x} = close`).join("\n")}
for i = 0 to 7
${names.map((x, k) => `    ${x} := math.${k % 2 ? "min" : "max"}(${x}, ${["high", "low", "open", "close"][k % 4]}[i])`).join("\n")}
${names.map((x) => `plot(${x}, "${x}")`).join("\n")}`),
      bars(20),
    );
    expect(extreme).toBe(1);
  });

  it("an offset beyond the column history limit is a runtime error on the statement's line", async () => {
    const r = await runBoth(
      v6(`float m = close
for i = 9990 to 10010
    m := math.max(m, high[i])
plot(m)`),
      bars(3),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.diagnostics?.[0]?.line).toBe(5);
  });

  for (const mode of ["interpret", "compile"] as const) {
    it(`the loop limit stops a window-extreme loop nested in a flat loop (${mode})`, async () => {
      const src = v6(`float m = 0.0
for k = 0 to 100000000
    for i = 0 to 9
        m := math.max(m, high[i])
        m := math.min(m, low[i])
plot(m)`);
      const r = await new Runtime().run(src, bars(5), { mode });
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.mode).toBe(mode);
    }, 30_000);
  }
});

describe("counted-if loops agree with the compile backend", () => {
  it("every comparison, operands of each kind (na included), each branch kind", async () => {
    const ops = ["<", "<=", ">", ">=", "==", "!="];
    const cases = ops
      .map(
        (op, k) => `int a${k} = 0
int b${k} = 0
int c${k} = 0
int e${k} = 0
for i = 0 to 6
    if close[i] ${op} open[i]
        a${k} += 1
for i = 0 to 6
    if d ${op} high[i]
        b${k} -= 2
    else
        b${k} += 3
for i = 6 to 0
    if low[i] ${op} 100.0
        c${k} += 1
    else
        break
for i = 0 to 8 by 2
    if 1.0 ${op} d
        continue
    else
        e${k} += 1
plot(a${k}, "a${k}")
plot(b${k}, "b${k}")
plot(c${k}, "c${k}")
plot(e${k}, "e${k}")`,
      )
      .join("\n");
    const { r, extreme, countedIf } = await runCounting(
      v6(`float d = bar_index % 3 == 0 ? na : math.round(close - open)
${cases}`),
      bars(30),
    );
    expect(r.error).toBeUndefined();
    // the four loops of each comparison ran as the kernel
    expect([extreme, countedIf]).toEqual([0, ops.length * 4]);
    expect(Object.keys(r.series).length).toBe(ops.length * 4);
  });

  it("a break leaves before the iteration's budget tick; the counter's last value stays", async () => {
    const r = await runBoth(
      v6(`int n = 0
int last = -1
for i = 0 to 9
    if i >= 4
        break
    else
        n += 1
for i = 0 to 5
    if high[i] > 0
        last += 1
plot(n, "n")
plot(last, "last")`),
      bars(8),
    );
    expect(r.series.n![0]).toBe(4);
    expect(r.series.last![7]).toBe(5);
  });

  it("an offset beyond the column history limit is a runtime error on the if's line", async () => {
    const r = await runBoth(
      v6(`int c = 0
for i = 9995 to 10005
    if close[i] > 1
        c += 1
plot(c)`),
      bars(3),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.diagnostics?.[0]?.line).toBe(5);
  });

  for (const mode of ["interpret", "compile"] as const) {
    it(`the loop limit stops a counted-if loop nested in a function's loop (${mode})`, async () => {
      const src = v6(`f(n) =>
    int c = 0
    for k = 0 to n
        for i = 0 to 9
            if close[i] > open[i]
                c += 1
    c
plot(f(100000000))`);
      const r = await new Runtime().run(src, bars(5), { mode });
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.mode).toBe(mode);
    }, 30_000);
  }
});

describe("kernels and drivers inside user functions", () => {
  it("two call sites of a function with kernel loops over its arguments and bound parameter", async () => {
    const { r, extreme, countedIf } = await runCounting(
      v6(`f(src, n) =>
    float mx = src
    int above = 0
    for i = 0 to n - 1
        mx := math.max(mx, high[i])
    for i = 0 to n
        if src > low[i]
            above += 1
    float s = 0.0
    for i = 0 to n - 1
        s += src[i]
    mx * 1000 + above + s
plot(f(close, 5), "a")
plot(f(open * 2, 3), "b")
plot(f(na, 2), "c")`),
      bars(25),
    );
    expect(r.error).toBeUndefined();
    expect(r.series.a!.some((v) => typeof v === "number" && !Number.isNaN(v))).toBe(true);
    // each of the three call sites builds the function's loops, two of them kernels
    expect([extreme, countedIf]).toEqual([3, 3]);
  });
});

describe("statement drivers: copies, bounds read once, break/continue", () => {
  it("more loops and ifs than there are driver copies", async () => {
    // 12 loops and 12 ifs: the copies are reused in turn; every loop/if keeps its own body
    const parts = Array.from(
      { length: 12 },
      (_, k) => `int c${k} = 0
for i = 0 to ${k + 1}
    if close[i] > open[i]
        c${k} += ${k + 1}
    else
        c${k} -= 1
plot(c${k}, "c${k}")`,
    );
    const r = await runBoth(v6(parts.join("\n")), bars(20));
    expect(Object.keys(r.series).length).toBe(12);
  });

  it("a bound variable assigned in a nested block, a nested loop or a switch is read again", async () => {
    const r = await runBoth(
      v6(`int n = 3
int a = 0
for i = 0 to n
    a += 1
    if i == 1
        n += 1
int m = 3
int b = 0
for i = 0 to m
    b += 1
    for j = 0 to 1
        if i == 0 and j == 1
            m := m + 2
int p = 2
int c = 0
for i = 0 to p - 0
    c += 1
    switch i
        0 => p := 4
        => c += 0
int q = 2
int d = 0
for i = 0 to q
    d += 1
plot(a, "a")
plot(b, "b")
plot(c, "c")
plot(d, "d")`),
      bars(3),
    );
    expect(r.series.a![0]).toBe(5);
    expect(r.series.b![0]).toBe(6);
    expect(r.series.c![0]).toBe(5);
    expect(r.series.d![0]).toBe(3);
  });

  it("break/continue inside a switch or an if-expression's block still reach the loop", async () => {
    const r = await runBoth(
      v6(`int a = 0
for i = 0 to 9
    switch
        i == 5 => break
        i % 2 == 0 => continue
    a += 1
int b = 0
for i = 0 to 9
    x = if i > 6
        break
    else
        i
    b += x
plot(a, "a")
plot(b, "b")`),
      bars(3),
    );
    expect(r.series.a![0]).toBe(2);
    expect(r.series.b![0]).toBe(21);
  });
});
