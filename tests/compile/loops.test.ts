// Loops in the compile backend (codegen.ts forLoop, the loop budget's countdown): a `for` with a
// constant step and constant bounds is a plain counted loop, a `to` the body cannot change is not read
// again after each iteration, and iterations are counted in a local synced with the run's budget
// around calls. Each case must agree with the interpreter bit for bit, errors and lines included, and
// spend the same budget units.
import { afterEach, describe, expect, it, vi } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { Budget } from "../../src/core/budget.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import { program, runPair } from "./parity.js";

const data = syntheticBars(300);

async function same(src: string) {
  const p = await runPair(src, data);
  expect(p.interpret.error).toBeUndefined();
  expect(p.compile.mode).toBe("compile");
  expect(p.difference).toBeNull();
  return p.interpret;
}

/** The generated text of a v6 script's loop function. */
const gen = (body: string) => generatedSource(program(v6(body)));

describe("for loops with known steps and bounds", () => {
  it("constant bounds and step: a plain counted loop, no run-time checks, the countdown in a local", () => {
    const text = gen("s = 0.0\nfor i = 0 to 9\n    s += close[i]\nfor j = 9 to 0 by 3\n    s += j\nplot(s)");
    expect(text).toMatch(/for \((\$\d+) = \(0\); \1 <= \(9\); \1 \+= \(1\)\)/);
    expect(text).toMatch(/for \((\$\d+) = \(9\); \1 >= \(0\); \1 -= \(3\)\)/);
    expect(text).not.toContain("--B.left");
    expect(text).toMatch(/B\.enter\(\); (\$\d+) = B\.left;/);
    expect(text).toMatch(/B\.exit\(\); B\.left = \$\d+;/);
  });

  it("a loop calling something that may spend the budget counts in B.left; one calling a budget-free function in a local", () => {
    const fns = "g(x) => x * 2\nf(n) =>\n    s = 0.0\n    for i = 0 to n\n        s += i\n    s\nt = 0.0\n";
    const free = gen(`${fns}for k = 0 to 9\n    t += g(k)\nplot(t)`);
    expect(free).toMatch(
      /for \(\$\d+ = \(0\); \$\d+ <= \(9\)[\s\S]*if \(--(\$\d+) <= 0\) \{ B\.left = \1; B\.check\(\); \1 = B\.left; \}/,
    );
    const spending = gen(`${fns}for k = 0 to 9\n    t += g(k) + f(k)\nplot(t)`);
    // (no countdown marker left over, codegen.ts settle)
    for (const text of [free, spending])
      for (const c of [1, 2, 3, 4]) expect(text.includes(String.fromCharCode(c))).toBe(false);
    expect(spending).toMatch(/for \(\$\d+ = \(0\); \$\d+ <= \(9\)[\s\S]*if \(--B\.left <= 0\) B\.check\(\);/);
  });

  it("a `to` the body never assigns is read once; one it assigns is read after every iteration", () => {
    const fixed = gen("n = bar_index % 7\ns = 0.0\nfor i = 0 to n - 1\n    s += i\nplot(s)");
    expect(fixed).not.toMatch(/if \(\$\d+ !== \$\d+\) break;/);
    const moving = gen("n = bar_index % 7\ns = 0.0\nfor i = 0 to n - 1\n    s += i\n    n -= 1\nplot(s)");
    expect(moving).toMatch(/if \(\$\d+ !== \$\d+\) break;/);
  });

  it("agree with interpret: a bound the body changes (shrinking, growing up to a cap, turning na)", async () => {
    await same(v6("n = bar_index % 9\nc = 0\nfor i = 0 to n\n    c += 1\n    n -= 1\nplot(c)\nplot(n)"));
    await same(v6("n = 2\nc = 0\nfor i = 0 to n\n    c += 1\n    if n < 40\n        n += 2\nplot(c)\nplot(n)"));
    await same(v6("float n = 6\nc = 0\nfor i = 0 to n\n    c += 1\n    if i == 3\n        n := na\nplot(c)"));
    // down: a bound that moves below the counter ends it, one moving away keeps it going
    await same(v6("n = -3\nc = 0\nfor i = 4 to n\n    c += i\n    n += 1\nplot(c)\nplot(n)"));
  });

  it("agree with interpret: negative, fractional and na bounds and steps", async () => {
    const loops = [
      "for i = 5 to -3",
      "for i = -3 to 5 by 2",
      "for i = 5 to -3 by -2",
      "for i = 0 to 1 by 0.1",
      "for i = 1 to 0 by 0.1",
      "for i = 0.5 to 3.7",
      "for i = 0 to 10 by 0",
      "for i = 0 to na",
      "for i = na to 3",
      "for i = 0 to 3 by na",
      "for i = 0 to bar_index % 5 - 2",
      "for i = bar_index % 4 to 1 by 0.25",
      "for i = 0 to bar_index % 6 by bar_index % 3 - 1",
      "for i = 2 to 2",
    ];
    for (const head of loops) {
      // the counter's exact bits: the sum, the last value, and how many iterations ran
      await same(
        v6(
          `float s = 0.0\nfloat last = na\nc = 0\n${head}\n    s += i * 1.37\n    last := i\n    c += 1\nplot(s)\nplot(last)\nplot(c)`,
        ),
      );
    }
  });

  it("agree with interpret: nested loops, a loop's value, break and continue", async () => {
    await same(
      v6(
        "best = 0.0\nfor i = 0 to 7\n    for j = i + 1 to 7\n        d = math.abs(close[i] - close[j])\n        if d > best\n            best := d\n        if j > 5\n            break\nplot(best)",
      ),
    );
    await same(v6("x = for i = 0 to 5\n    if i == 3\n        continue\n    i * 2\nplot(x)"));
    await same(v6("y = for i = 10 to 0 by 4\n    close[i]\nplot(y)"));
  });

  it("agree with interpret: a user function with a loop called twice a bar, inside another loop", async () => {
    await same(
      v6(
        "hh(src, len) =>\n    float h = src\n    for i = 1 to len - 1\n        if src[i] > h\n            h := src[i]\n    h\nt = 0.0\nfor k = 0 to 2\n    t += hh(high, 5 + k) - hh(low, 5 + k)\nplot(t)",
      ),
    );
  });
});

describe("the loop budget's countdown", () => {
  afterEach(() => vi.restoreAllMocks());

  it("spends the same units as the interpreter: the same clock reads, calls in loops included", async () => {
    // loops calling builtins that spend the budget (array.sort), a user function with its own loop,
    // a while with a break, a for-in, nested loops: every clock read (Budget.check) counted per mode
    const src = v6(
      [
        "f(n) =>",
        "    s = 0.0",
        "    for i = 0 to n",
        "        s += math.sqrt(i)",
        "    s",
        "var a = array.new_float(0)",
        "a.push(close)",
        "if a.size() > 40",
        "    a.shift()",
        "t = 0.0",
        "for k = 0 to 20",
        "    b = a.copy()",
        "    b.sort()",
        "    t += f(k * 3) + b.get(0)",
        "    for j = 0 to k",
        "        t += j",
        "int w = 0",
        "while true",
        "    w += 1",
        "    if w > 50",
        "        break",
        "for v in a",
        "    t += v",
        "plot(t)",
        "plot(w)",
      ].join("\n"),
    );
    const checks: Record<string, number> = {};
    const spy = vi.spyOn(Budget.prototype, "check");
    for (const mode of ["interpret", "compile"] as const) {
      spy.mockClear();
      const r = await new Runtime().run(src, bars(600), { mode });
      expect(r.error).toBeUndefined();
      expect(r.mode).toBe(mode);
      checks[mode] = spy.mock.calls.length;
    }
    expect(checks.compile).toBeGreaterThan(10);
    expect(checks.compile).toBe(checks.interpret);
  });

  it("stops a runaway loop at nesting depth 3 with the loop limit's error and line, in both modes", async () => {
    const r = await runBoth(
      v6("x = 0\nfor i = 0 to 2\n    for j = 0 to 2\n        while true\n            x += 1\nplot(x)"),
      bars(5),
    );
    expect(r.error).toBe("Loop is too long (> 500 ms)");
    expect(r.error_bar).toBe(0);
    expect([4, 5, 6, 7]).toContain(r.diagnostics?.[0]?.line);
  });

  it("stops a runaway loop in a user function called at depth 3", async () => {
    const r = await runBoth(
      v6(
        "f() =>\n    s = 0\n    while true\n        s += 1\n    s\nx = 0\nfor i = 0 to 2\n    for j = 0 to 2\n        x += f()\nplot(x)",
      ),
      bars(5),
    );
    expect(r.error).toBe("Loop is too long (> 500 ms)");
    expect(r.error_bar).toBe(0);
  });

  it("a failing statement in a loop keeps its own line", async () => {
    const r = await runBoth(
      v6("a = array.new_float(3, 1.0)\ns = 0.0\nfor i = 0 to 5\n    s += i\n    s += a.get(i)\nplot(s)"),
      bars(5),
    );
    expect(r.error).toMatch(/index/i);
    expect(r.diagnostics?.[0]?.line).toBe(7);
  });
});
