// The generator's shortcuts for common builtins (issue 18 part 2): pure numeric builtins written out
// as JavaScript (na, nz, math.*), builtins with a positional form called without an argument array
// (array.*), and input.* read from the call site after the first bar. Each must give exactly what
// the interpreter's call through the impl gives, na, -0 and errors included.
import { describe, expect, it } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { program, runPair } from "./parity.js";

const v6 = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;
const data = syntheticBars(300);

async function same(src: string) {
  const p = await runPair(src, data);
  expect(p.interpret.error_kind).not.toBe("check");
  expect(p.compile.mode).toBe("compile");
  expect(p.difference).toBeNull();
  return p;
}

describe("pure numeric builtins inline", () => {
  it("are written as JavaScript, not called through an argument array", () => {
    const text = generatedSource(
      program(v6("x = bar_index % 3 == 0 ? na : close - open\nplot(math.abs(x) + nz(x) + math.max(x, 0, -1))")),
    );
    expect(text).toContain("Math.abs(");
    // the one call through an impl left is plot's first-bar registration
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)).toHaveLength(1);
  });
  it("na, nz, math.max/min with na, -0 and ties agree with the impl", async () => {
    await same(
      v6(
        [
          "x = bar_index % 3 == 0 ? na : bar_index % 3 == 1 ? -0.0 : close - open",
          "y = bar_index % 5 == 0 ? 0.0 : bar_index % 5 == 1 ? na : open - close",
          "plot(na(x) ? 1 : 0)",
          "plot(nz(x))",
          "plot(nz(x, y))",
          "plot(1 / math.max(x, y))",
          "plot(1 / math.min(x, y))",
          "plot(1 / math.max(y, x, -0.0))",
          "plot(1 / math.min(0.0, x, y))",
          "plot(math.max(x, 1))",
          "plot(math.min(2, 3))",
        ].join("\n"),
      ),
    );
  });
  it("math.avg of one to five arguments (plain sums, Kahan's) agrees with the impl on na, -0 and large spreads", async () => {
    const text = generatedSource(program(v6("plot(math.avg(close, open))\nplot(math.avg(close, open, high, low))")));
    // (the plots' first-bar registrations are the only calls through an impl)
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)).toHaveLength(2);
    await same(
      v6(
        [
          "x = bar_index % 3 == 0 ? na : bar_index % 3 == 1 ? -0.0 : (close - open) / 3",
          "y = bar_index % 7 == 0 ? -0.0 : close * 1e12",
          'plot(1 / math.avg(x), "one")',
          'plot(1 / math.avg(x, -0.0), "two")',
          'plot(math.avg(y, x, 1e-9), "three")',
          'plot(math.avg(close, open, high, low), "four")',
          'plot(math.avg(y, -y, 0.1, x, 3), "five")',
          'plot(math.avg(high, low) - hl2, "hl2")',
        ].join("\n"),
      ),
    );
  });
  it("math.* unary functions, sign and pow agree on na, -0 and negative numbers", async () => {
    const fns = ["abs", "acos", "asin", "atan", "ceil", "cos", "exp", "floor", "log", "log10", "sin", "sqrt", "tan"];
    await same(
      v6(
        [
          "x = bar_index % 4 == 0 ? na : bar_index % 4 == 1 ? -0.0 : (close - open) / 3",
          ...fns.map((f) => `plot(math.${f}(x), "${f}")`),
          'plot(1 / math.sign(x), "sign")',
          'plot(math.pow(x, 2), "pow")',
          'plot(math.pow(2, x), "pow2")',
        ].join("\n"),
      ),
    );
  });
});

describe("array builtins called positionally", () => {
  it("array.get/avg call the builtin's direct form with the values themselves; push/size are written out", () => {
    const text = generatedSource(
      program(v6("var a = array.new_float()\na.push(close)\nplot(a.size() > 0 ? a.get(0) + a.avg() : na)")),
    );
    // get and avg: the builtin's direct form with the values themselves (the array in a local of the loop)
    expect(text).toMatch(/K\d+\(ctx, s\d+, \(0\)\)/);
    expect(text).toMatch(/K\d+\(ctx, s\d+\)/);
    // push and size on a plain array are the element operations themselves, the builtin the fallback
    expect(text).toMatch(
      /\$\d+\.constructor === PineArray && \$\d+\.values\.length < 100000 \? void \$\d+\.values\.push\(\$\d+\) : K\d+\(ctx, \$\d+, \$\d+\)/,
    );
    expect(text).toMatch(/\$\d+\.constructor === PineArray \? \$\d+\.values\.length : K\d+\(ctx, \$\d+\)/);
  });
  it("push/pop/shift/size on slices (views of their source) and on plain arrays agree with interpret", async () => {
    await same(
      v6(
        [
          "var a = array.new_float()",
          "a.push(close)",
          "if a.size() > 8",
          "    a.shift()",
          "s = a.size() > 4 ? a.slice(1, 4) : a",
          "s.push(open)",
          "x = s.size() > 3 ? s.pop() : na",
          "y = s.size() > 2 ? s.shift() : -0.0",
          "plot(a.size())",
          "plot(s.size())",
          "plot(x)",
          "plot(1 / y)",
          "plot(a.avg())",
        ].join("\n"),
      ),
    );
  });
  it("a window kept with push/shift/get/set/first/last/sum/avg agrees with interpret", async () => {
    await same(
      v6(
        [
          "var a = array.new_float()",
          "var b = array.new_int(3, 1)",
          "a.push(bar_index % 7 == 0 ? na : close - open)",
          "if a.size() > 5",
          "    a.shift()",
          "if a.size() > 2",
          "    a.set(1, a.get(0) * 2)",
          "    a.set(-1, high)",
          "b.unshift(bar_index)",
          "if b.size() > 4",
          "    b.pop()",
          "plot(a.avg())",
          "plot(a.sum())",
          "plot(a.first() - a.last())",
          "plot(b.get(-1))",
          "plot(b.size())",
        ].join("\n"),
      ),
    );
  });
  it("errors keep the interpreter's message and line: shift of an empty array, an na array", async () => {
    const empty = await runPair(v6("var a = array.new_float()\nif bar_index == 10\n    a.shift()\nplot(close)"), data);
    expect(empty.compile.mode).toBe("compile");
    expect(empty.interpret.error).toMatch(/Cannot call `shift\(\)` if array is empty/);
    expect(empty.difference).toBeNull();
    const na = await runPair(v6("array<float> a = na\nif bar_index == 4\n    a.push(1)\nplot(close)"), data);
    expect(na.interpret.error).toMatch(/array that is na/);
    expect(na.difference).toBeNull();
  });
});

describe("order builtins called positionally", () => {
  const strat = (body: string) => `//@version=6\nstrategy("s")\n${body}\n`;
  it("strategy.exit writes its varying arguments into the site's own request and calls one small entry point", () => {
    const text = generatedSource(program(strat('strategy.exit("XL", "L", limit = close + 2, stop = close - 1)')));
    // the constant id and from_entry are in the request from the start; limit and stop written per bar
    expect(text).toMatch(
      /\((\$\d+) = \(b_close \+ \(2\)\), (K\d+)\.limit = typeof \1 === "number" \? \1 : NaN, (\$\d+) = \(b_close - \(1\)\), \2\.stop = typeof \3 === "number" \? \3 : NaN, K\d+\(ctx, \2\)\)/,
    );
    expect(text).not.toContain('"XL"');
  });
  it("named arguments written out of parameter order are written into the request in the written order", () => {
    const text = generatedSource(
      program(
        strat('strategy.exit(str.tostring(bar_index % 3), stop = close - 1, from_entry = "L", limit = close + 2)'),
      ),
    );
    expect(text).toMatch(/(K\d+)\.id = .*\1\.stop = .*\1\.limit = .*K\d+\(ctx, \1\)\)/);
  });
  it("two exit sites keep their own requests; na, varying ids, comments and alert messages agree with interpret", async () => {
    const src = strat(
      [
        "if bar_index % 9 == 0",
        '    strategy.entry("L" + str.tostring(bar_index % 2), strategy.long, alert_message = "in")',
        "if bar_index % 13 == 0",
        '    strategy.entry("S", strategy.short)',
        "s = bar_index % 4 == 0 ? na : low - 1",
        'c = bar_index % 3 == 0 ? na : "c" + str.tostring(bar_index % 5)',
        'strategy.exit("X" + str.tostring(bar_index % 2), from_entry = "L" + str.tostring(bar_index % 2), comment = c, stop = s, limit = high + 2, alert_message = c, qty_percent = bar_index % 2 == 0 ? na : 50.0)',
        'strategy.exit("XS", "S", profit = 150, loss = 100, comment_profit = "tp", alert_loss = c, disable_alert = bar_index % 2 == 0)',
        "plot(strategy.position_size)",
      ].join("\n"),
    );
    const text = generatedSource(program(src));
    // every order call site (the two entries, the two exits) on the request path, each with its own object
    const sites = [...text.matchAll(/K\d+\(ctx, (K\d+)\)\)/g)].map((m) => m[1]);
    expect(sites).toHaveLength(4);
    expect(new Set(sites).size).toBe(4);
    expect(text).toMatch(/K\d+\.alertMessage = /);
    expect(text).toMatch(/K\d+\.disableAlert = \(/);
    const p = await same(src);
    const exits = p.interpret.events.filter((e) => e.kind === "exit");
    expect(exits.length).toBeGreaterThan(400);
    // the varying comments reached the broker (na ones as null)
    expect(new Set(exits.map((e) => e.comment)).size).toBeGreaterThan(3);
  });
  it("out-of-order named arguments with side effects run in the written order, as in interpret", async () => {
    const p = await same(
      strat(
        [
          "var log = array.new_float()",
          "f(x) =>",
          "    array.push(log, x)",
          "    x",
          "if bar_index % 7 == 0",
          '    strategy.entry("L", strategy.long)',
          'strategy.exit("XL", comment = "x", limit = f(high + 1), from_entry = "L", stop = f(low - 1))',
          "n = array.size(log)",
          // the last value pushed is the stop's (written last), the one before the limit's
          "plot(n >= 2 ? array.get(log, n - 1) - low : na)",
          "plot(n >= 2 ? array.get(log, n - 2) - high : na)",
        ].join("\n"),
      ),
    );
    const cols = Object.values(p.interpret.series) as (number | null)[][];
    expect(cols[0][50]).toBeCloseTo(-1, 9);
    expect(cols[1][50]).toBeCloseTo(1, 9);
    expect(p.interpret.events.filter((e) => e.kind === "exit").length).toBeGreaterThan(200);
  });
  it("entries, exits and closes agree with interpret, brackets re-placed on every bar", async () => {
    await same(
      strat(
        [
          "if ta.crossover(ta.ema(close, 5), ta.ema(close, 13))",
          '    strategy.entry("L", strategy.long, comment = "in")',
          "if ta.crossunder(ta.ema(close, 5), ta.ema(close, 13))",
          '    strategy.entry("S", strategy.short, qty = 2)',
          'strategy.exit("XL", "L", stop = low - 1, limit = high + 2, comment_loss = "sl")',
          'strategy.exit("XS", "S", profit = 150, loss = 100)',
          'if bar_index % 40 == 0\n    strategy.close("S", comment = "t")',
        ].join("\n"),
      ),
    );
  });
  it("an na exit id is the interpreter's error, on the same bar and line, through the site's request", async () => {
    const p = await runPair(
      strat(
        [
          'if bar_index == 3\n    strategy.entry("L", strategy.long)',
          'string id = bar_index < 20 ? "XL" : na',
          'strategy.exit(id, "L", stop = low - 1, comment = id)',
        ].join("\n"),
      ),
      data,
    );
    expect(p.compile.mode).toBe("compile");
    expect(p.interpret.error).toMatch(/strategy\.exit: the order id must be a string, not na/);
    expect(p.difference).toBeNull();
  });
  it("strategy.close, close_all and cancel go through their sites' own requests (constant arguments written once); qty, qty_percent, immediately and stacked closes agree with interpret", async () => {
    const body = [
      'if bar_index % 7 == 0\n    strategy.entry("L", strategy.long, qty = 4)',
      'if bar_index % 11 == 0\n    strategy.entry("S", strategy.short, qty = 3, stop = low - 1)',
      'if bar_index % 7 == 3\n    strategy.close("L", comment = "part", qty = 1)',
      'if bar_index % 7 == 4\n    strategy.close("L", qty_percent = bar_index % 2 == 0 ? 50.0 : na, alert_message = "a")',
      'if bar_index % 13 == 5\n    strategy.close("L", immediately = true, comment = str.tostring(bar_index))',
      'if bar_index % 11 == 2\n    strategy.cancel("S")',
      'if bar_index % 17 == 9\n    strategy.close_all(comment = "all", immediately = bar_index % 2 == 0)',
    ].join("\n");
    const text = generatedSource(program(strat(body)));
    // every call of the three (and the entries) through its own request, no argument array: a call
    // with constant arguments only is the place call alone, the others write what varies first
    const sites = [...text.matchAll(/K\d+\(ctx, (K\d+)\)\)/g)].map((m) => m[1]);
    expect(new Set(sites).size).toBe(7);
    expect(text).toMatch(/\(K\d+\(ctx, K\d+\)\);/);
    expect(text).toMatch(/K\d+\.qtyPercent = typeof /);
    expect(text).toMatch(/K\d+\.immediately = \(/);
    const p = await same(strat(body));
    const kinds = new Set(p.interpret.events.map((e: { kind: string }) => e.kind));
    for (const k of ["close", "close_all", "cancel"]) expect(kinds.has(k)).toBe(true);
  });
  it("an na close or cancel id is the interpreter's error, on the same bar and line, through the site's request", async () => {
    for (const call of ["strategy.close(id)", "strategy.cancel(id)"]) {
      const p = await runPair(
        strat(
          [
            'if bar_index == 3\n    strategy.entry("L", strategy.long)',
            'string id = bar_index < 20 ? "L" : na',
            call,
          ].join("\n"),
        ),
        data,
      );
      expect(p.compile.mode).toBe("compile");
      expect(p.interpret.error).toMatch(/the order id must be a string, not na/);
      expect(p.difference).toBeNull();
    }
  });
});

describe("var numbers as locals of the loop function (issue 18 part 3)", () => {
  it("a var float/int without history is a JavaScript local, not a state-array slot", () => {
    const text = generatedSource(
      program(v6("var float peak = na\nvar int n = 0\nn += 1\npeak := math.max(nz(peak), high)\nplot(peak + n)")),
    );
    expect(text).not.toMatch(/N\[\d+\]/);
    expect(text).toMatch(/if \(O\[\d+\] === 0\) \{ O\[\d+\] = 1; s\d+ = \+\(NaN\); \}|s\d+ = \+\(NaN\)/);
  });
  it("agree with interpret: var in blocks and loops, na starts, int coercion, history and function use", async () => {
    await same(
      v6(
        [
          "var float peak = na",
          "var int streak = 0",
          "var float acc = 0.5",
          "var float seen = na",
          "f(x) =>",
          "    var float inner = 0.0",
          "    inner += x",
          "    inner",
          "if close > open",
          "    streak += 1",
          "    var float firstUp = close",
          "    acc += firstUp / 1000",
          "else",
          "    streak := 0",
          "for i = 0 to 2",
          "    var int loops = 0",
          "    loops += i",
          "    acc += loops * 1e-6",
          "peak := na(peak) or high > peak ? high : peak",
          "var float hist = 0.0",
          "hist := hist + close - open",
          "seen := bar_index % 4 == 0 ? na : -0.0",
          "plot(peak)",
          "plot(streak / 3)",
          "plot(acc)",
          "plot(hist[2])",
          "plot(f(close))",
          "plot(1 / seen)",
        ].join("\n"),
      ),
    );
  });
});

describe("plain numbers of a user function as locals of its generated function", () => {
  it("a function's plain float/int variables and loop counter are `let`s of the function, not state slots", () => {
    const text = generatedSource(
      program(
        v6(
          [
            "wavg(src, n) =>",
            "    float num = 0.0",
            "    float den = 0.0",
            "    for i = 0 to n - 1",
            "        w = n - i",
            "        num += src[i] * w",
            "        den += w",
            "    num / den",
            "plot(wavg(close, 5))",
          ].join("\n"),
        ),
      ),
    );
    const fn = text.match(/function u\d+\(p0, p1\) \{\n {2}let (s\d+ = NaN(, )?)+;/);
    expect(fn).not.toBeNull();
    // only the parameter with history (src[i] reads its ring) stays in the state array
    expect(text.match(/N\[\d+\]/g)?.every((m) => m === text.match(/N\[\d+\]/)![0])).toBe(true);
    // a numeric ring's na is NaN itself (a raw double read), not the ring's field
    expect(text).not.toContain(".na)");
  });
  it("agree with interpret: var in functions, two call sites, nested blocks, named arguments, na and -0", async () => {
    await same(
      v6(
        [
          "f(x, n) =>",
          "    var float total = 0.0",
          "    float s = 0.0",
          "    int k = 0",
          "    for i = 0 to n - 1",
          "        s += nz(x[i]) * (i + 1)",
          "        k += 1",
          "    total += s",
          "    y = s > 0 ? (x > 0 ? s : -0.0) : na",
          "    z = if k > 2",
          "        s / k",
          "    else",
          "        na",
          "    [total / 1000, nz(y) + nz(z)]",
          "g(a, b) =>",
          "    m = a - b",
          "    m * m",
          "[t1, v1] = f(close - open, 4)",
          "[t2, v2] = f(high - low, 3)",
          "plot(t1)",
          "plot(v1)",
          "plot(t2 + v2)",
          "plot(g(b = open, a = close))",
          "plot(1 / g(close, close))",
        ].join("\n"),
      ),
    );
  });
});

describe("input.* after the first bar", () => {
  it("reads the value the call site keeps instead of calling again, then keeps it in a local of the run", () => {
    const text = generatedSource(program(v6('len = input.int(14, "Length", minval = 1)\nplot(ta.sma(close, len))')));
    expect(text).toMatch(/I0 !== undefined \? I0 : \(\(\$\d+ = K\d+\.state\) !== undefined \? \(I0 = \$\d+\.value\) :/);
    expect(text).toMatch(/let I0[,;]/);
    // the re-runnable variant's bar body is a closure too: it reads the site
    const rerun = generatedSource(
      program(v6('len = input.int(14, "Length", minval = 1)\nplot(ta.sma(close, len))')),
      false,
      true,
    );
    expect(rerun).not.toContain("I0");
    expect(rerun).toMatch(/\(\$\d+ = K\d+\.state\) !== undefined \? \$\d+\.value :/);
  });
  it("source inputs still read the source on every bar; every input kind agrees with interpret", async () => {
    await same(
      v6(
        [
          'len = input.int(5, "Length", minval = 1, maxval = 50)',
          'mult = input.float(1.5, "Mult", step = 0.5)',
          'on = input.bool(true, "On")',
          'src = input.source(hl2, "Source")',
          'src2 = input(close, "Source 2")',
          'mode = input.string("a", "Mode", options = ["a", "b"])',
          "plot(on ? ta.sma(src, len) * mult : na)",
          'plot(mode == "a" ? src2 : src)',
        ].join("\n"),
      ),
    );
  });
});

describe("input.* whose arguments are price sources", () => {
  const script = v6(
    [
      'src = input.source(close, "Source")',
      'base = input(hl2, "Base")',
      'len = input.int(7, "Length")',
      "plot(ta.rsi(src, len))",
      "plot(src - base)",
    ].join("\n"),
  );
  it("are read from their call site after the first bar, their arguments not evaluated again", () => {
    const text = generatedSource(program(script));
    // both source inputs: the kept path, reading the source each bar
    expect(text.match(/\.source \? \$\d+\.source\(ctx\) : \$\d+\.value/g)).toHaveLength(2);
  });
  it("agree with interpret as written and with their sources overridden", async () => {
    await same(script);
    for (const inputs of [{ Source: "open" }, { Source: "hlc3", Base: "low" }, { src: "ohlc4", len: 3 }]) {
      const p = await runPair(script, data, { inputs });
      expect(p.compile.mode).toBe("compile");
      expect(p.difference).toBeNull();
      expect(p.compile.plots).not.toEqual((await runPair(script, data)).compile.plots);
    }
  });
});

describe("strategy.* figures", () => {
  const strat = (body: string) => `//@version=6\nstrategy("s", pyramiding = 2)\n${body}\n`;
  it("are read from the broker by each figure's own reader, not through the shared getter", () => {
    const text = generatedSource(program(strat("plot(strategy.position_size + strategy.opentrades)")));
    expect(text.match(/= ctx\.broker\) \? K\d+\(\$\d+, ctx\) : \(0\)/g)).toHaveLength(2);
  });
  it("agree with interpret, flat, in a trade and after trades closed", async () => {
    await same(
      strat(
        [
          "if bar_index % 20 == 3 and strategy.position_size == 0",
          '    strategy.entry("L", strategy.long)',
          "if strategy.opentrades > 0 and bar_index % 20 == 11",
          '    strategy.close("L")',
          "plot(strategy.equity)",
          "plot(strategy.netprofit + strategy.openprofit)",
          "plot(strategy.position_avg_price)",
          "plot(strategy.closedtrades)",
          'plot(strategy.position_entry_name == "L" ? 1 : 0)',
        ].join("\n"),
      ),
    );
  });
});

describe("colour and rounding builtins without an argument array (color.new written out, the others BuiltinDef.direct)", () => {
  const SRC = v6(
    [
      "x = bar_index % 4 == 0 ? na : (close - open) * 37.123",
      "t = bar_index % 5 == 0 ? na : bar_index % 130 - 10",
      "c = close > open ? color.green : bar_index % 7 == 0 ? na : color.red",
      'plot(close, "a", color = color.new(c, t))',
      'plot(close, "b", color = color.new(c, 40))',
      'plot(close, "b2", color = color.new(c, x / 3))',
      'plot(close, "b3", color = color.new(color.blue, bar_index % 201 / 2 - 0.5))',
      'plot(close, "c", color = color.rgb(bar_index % 300 - 20, 100, x, t))',
      'plot(close, "d", color = color.rgb(bar_index % 255, 10, 20))',
      'plot(close, "e", color = color.from_gradient(x, -20, 20, color.blue, c))',
      'plot(math.round(x), "r0")',
      'plot(math.round(x, 2), "r2")',
      'plot(math.round(x, t % 4), "rt")',
    ].join("\n"),
  );
  it("without an argument array", () => {
    const text = generatedSource(program(SRC));
    // (the only calls through an impl: the ten plots' first-bar registrations)
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)).toHaveLength(10);
    // color.new is packColor written out, four times
    expect(text.match(/Math\.round\(\(255 \* \(100 - \$\d+\)\) \/ 100\)/g)).toHaveLength(4);
    expect(text).toMatch(/K\d+\(ctx, s\d+, \(2\)\)/);
  });
  it("agree with the impl on na, clamped channels and transparencies, and rounding ties", async () => {
    await same(SRC);
  });
});
