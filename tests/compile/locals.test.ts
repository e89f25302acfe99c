// The loop function's JS locals (codegen.ts): variables without history that no nested function
// touches live in locals of the generated function, not in the state arrays. Non-numeric ones (bools,
// strings, collections, objects) keep their value as it is (no `+`), start from the state's na of
// their slot and, in the re-runnable variant, go through the untyped array `V` (where the rollback of
// objects mutated in place finds them). Each case must agree with the interpreter.
import { describe, expect, it } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { program, runPair } from "./parity.js";

const data = syntheticBars(200);

async function same(src: string, opts = {}) {
  const p = await runPair(src, data, opts);
  expect(p.interpret.error_kind).not.toBe("check");
  expect(p.compile.mode).toBe("compile");
  expect(p.difference).toBeNull();
}

const BOOLS = [
  "up = close > open",
  "var bool seen = false",
  "if up and not seen",
  "    seen := true",
  "flip = bar_index % 3 == 0 ? up : not up",
  "both = up and flip",
  'plot(both ? 1 : seen ? 2 : 0, "b")',
].join("\n");

describe("bool variables as locals", () => {
  it("are JS locals of the loop, stored without a numeric conversion", () => {
    const text = generatedSource(program(`//@version=6\nindicator("t")\n${BOOLS}\n`));
    expect(text).toMatch(/\n {2}let s\d+ = V\[\d+\]/);
    expect(text).toMatch(/\n {6}s\d+ = \(b_close > b_open\);/);
    // stored into the state only once, when the loop returns (the Runtime keeps the last run's state)
    expect(text).not.toMatch(/V\[\d+\] = [^s]/);
    expect(text).toMatch(/\n {2}V\[\d+\] = s\d+;( V\[\d+\] = s\d+;)*\n {2}return bar;/);
  });
  it("agree with interpret: plain, var, ternary, and/or", async () => {
    await same(`//@version=6\nindicator("t")\n${BOOLS}\n`);
  });
  it("agree with interpret in v5, where a bool can be na", async () => {
    await same(
      `//@version=5\nindicator("t")\nb = bar_index % 4 == 0 ? na : close > open\nvar bool k = na\nk := bar_index % 5 == 0 ? b : k\nplot(na(b) ? -1 : b ? 1 : 0)\nplot(na(k) ? -1 : k ? 1 : 0)\n`,
    );
  });
  it("a bool a nested function touches stays in the state array", async () => {
    const src = `//@version=6\nindicator("t")\nup = close > open\nf() => up and close > close[1]\nplot(f() ? 1 : 0)\n`;
    expect(generatedSource(program(src))).toMatch(/V\[\d+\] = \(b_close > b_open\)/);
    await same(src);
  });
  it("go through the state array in the re-runnable variant (realtime ticks, fill re-runs)", async () => {
    const text = generatedSource(program(`//@version=6\nindicator("t")\n${BOOLS}\n`), false, true);
    expect(text).toMatch(/\n {4}let s\d+ = V\[\d+\]/);
    expect(text).toMatch(/ V\[\d+\] = s\d+;/);
    await same(`//@version=6\nindicator("t")\n${BOOLS}\n`, { realtimeBars: 3, realtimeTicks: 4 });
    await same(
      `//@version=6\nstrategy("s", calc_on_order_fills = true)\n${BOOLS}\nif both and strategy.position_size == 0\n    strategy.entry("L", strategy.long)\nif seen and not up\n    strategy.close("L")\n`,
    );
  });
});

describe("what a call site or a var declaration settles once per run", () => {
  const src = `//@version=6\nindicator("t")\nvar float acc = 0\nvar a = array.new<float>()\nacc += close - open\na.push(acc)\nplot(acc, "acc")\nplot(a.size(), "n")\n`;
  it("a plot's column and index, and a var's once-flag, are locals of the run in the plain variant", () => {
    const text = generatedSource(program(src));
    expect(text).toMatch(/P\d+ !== undefined \? \(P\d+\[b_bar\] = \$\d+, P\d+i\)/);
    expect(text).toMatch(/if \(o\d+ === 0\) \{ o\d+ = 1;/);
    expect(text).not.toMatch(/O\[\d+\]/);
  });
  it("the re-runnable variant keeps reading the site and the state's flags (a re-run rolls them back)", () => {
    const text = generatedSource(program(src), false, true);
    expect(text).not.toMatch(/P\d+ !== undefined/);
    expect(text).toMatch(/if \(O\[\d+\] === 0\) \{ O\[\d+\] = 1;/);
  });
  it("agree with interpret, also with realtime ticks", async () => {
    await same(src);
    await same(src, { realtimeBars: 2, realtimeTicks: 3 });
  });
});

describe("strings, collections and objects as locals", () => {
  const src = [
    "//@version=6",
    'indicator("t")',
    "type P",
    "    float v",
    "    int n = 0",
    "var p = P.new(0.0)",
    "var m = map.new<string, float>()",
    'var s = ""',
    'tag = close > open ? "up" : "down"',
    "s := str.length(s) > 20 ? tag : s + tag",
    "p.v += close - open",
    "p.n += 1",
    "m.put(tag, nz(m.get(tag)) + 1)",
    "a = array.from(p.v, m.size(), str.length(s))",
    "plot(a.sum())",
    'plot(nz(m.get("up")) - nz(m.get("down")))',
  ].join("\n");
  it("are JS locals of the loop", () => {
    const text = generatedSource(program(`${src}\n`));
    expect(text).not.toMatch(/V\[\d+\] = [^s]/);
  });
  it("agree with interpret, also with realtime ticks (objects mutated in place roll back)", async () => {
    await same(`${src}\n`);
    await same(`${src}\n`, { realtimeBars: 3, realtimeTicks: 4 });
  });
});
