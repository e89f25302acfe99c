import { describe, expect, it } from "vitest";
import { javaDoubleToString, scaledDigits } from "../../src/builtins/str/decimal.js";
import { formatMessage, FormatError } from "../../src/builtins/str/format.js";
import { formatNumberPattern } from "../../src/builtins/str/numfmt.js";
import { formatTime } from "../../src/builtins/str/time.js";
import { decimalsOf, numberToString, valueToString } from "../../src/builtins/str/tostring.js";
import { PineArray } from "../../src/core/values.js";
import { caller, expectedMessages, makeCtx, PineRuntimeError } from "./math-helpers/ctx.js";

const f = (p: string, ...a: unknown[]) => formatMessage(p, a as never[]);
const T = Date.UTC(2025, 0, 1, 6, 23, 45); // 2025-01-01 01:23:45-05:00

describe("decimal rounding", () => {
  it.each([
    [0.125, 2, "12"], // exact tie -> even
    [0.375, 2, "38"],
    [1.005, 2, "100"], // 1.005 is below the tie in binary
    [2.5, 0, "2"],
    [3.5, 0, "4"],
    [123.456, 1, "1235"],
  ])("scaledDigits(%s, %s) = %s", (x, d, want) => {
    expect(scaledDigits(x, d)).toBe(want);
  });
  it.each([
    [1, "1.0"],
    [0, "0.0"],
    [0.07392212709545729, "0.07392212709545729"],
    [1e7, "1.0E7"],
    [1.5e-5, "1.5E-5"],
    [0.001, "0.001"],
    [-2.5, "-2.5"],
    [123456.789, "123456.789"],
  ])("javaDoubleToString(%s) = %s", (x, want) => {
    expect(javaDoubleToString(x)).toBe(want);
  });
});

describe("number patterns", () => {
  it.each([
    [3.99, "#", "4"],
    [123, "#.00", "123.00"],
    [-123, "00000.00", "-00123.00"],
    [0.5, "#.#", "0.5"],
    [1234567.891, "#,##0.00", "1,234,567.89"],
    [0.256, "#%", "26%"],
    [12345, "0.###E0", "1.234E4"],
    [-5, "#;(#)", "(5)"],
    [7, "'#'#", "#7"],
    [NaN, "#.##", "NaN"],
  ])("%s with %s -> %s", (x, p, want) => {
    expect(formatNumberPattern(x, p)).toBe(want);
  });
});

describe("str.tostring", () => {
  it.each([
    [123, undefined, "123"],
    [12.3, undefined, "12.3"],
    [1 / 3, undefined, "0.3333333333"],
    [NaN, undefined, "NaN"],
    [1.23456, "mintick", "1.23456"],
    [1.2345678, "mintick", "1.23457"],
    [5183, "volume", "5.183K"],
    [2500000, "volume", "2.5M"],
    [12.345, "percent", "12.35%"],
  ])("%s, %s -> %s", (x, fmt, want) => {
    expect(numberToString(x as number, fmt as string | undefined, 1e-5)).toBe(want);
  });
  it("other types", () => {
    expect(valueToString(true)).toBe("true");
    expect(valueToString("abc")).toBe("abc");
    expect(valueToString(null)).toBe("NaN");
    expect(valueToString(new PineArray("float", [1, 2.5]))).toBe("[1, 2.5]");
  });
  it("decimalsOf", () => {
    expect([0.01, 1e-5, 0.025, 1, 0.25].map(decimalsOf)).toEqual([2, 5, 3, 0, 2]);
  });
});

describe("str.format", () => {
  it("placeholders, quoting and missing arguments", () => {
    expect(f("'{0}' is {0}", 5)).toBe("{0} is 5");
    expect(f("it''s {1}", 1)).toBe("it's {1}");
    expect(f("a } b {0}", "x")).toBe("a } b x");
    expect(f("{0}", new PineArray("float", [1, 0]))).toBe("[1.0, 0.0]");
    expect(f("{0}", new PineArray("int", [1, NaN]))).toBe("[1, NaN]");
    expect(f("{0,number,#.#}", new PineArray("float", [1.26, 2]))).toBe("[1.3, 2]");
    expect(f("{0}", 1340000)).toBe("1,340,000"); // default "#,###.###" groups digits
    expect(f("{0,number}", 1340000.5)).toBe("1,340,000.5");
    expect(f("{0,date,yyyy-MM-dd}", T)).toBe("2025-01-01");
    expect(f("{0} {1}", true, null)).toBe("true NaN");
  });
  it("an unmatched brace is an error", () => {
    expect(() => f("ab {0 de", 1)).toThrow(FormatError);
    const ctx = makeCtx();
    expect(() => caller(ctx)("str.format", "x {0", 1)).toThrow(PineRuntimeError);
  });
});

describe("User Manual examples (Debugging > Strings)", () => {
  const call = caller();
  const from = (...v: unknown[]) => new PineArray(typeof v[0] === "string" ? "string" : "float", v);
  it.each([
    [[1.25], "1.25"],
    [[1.25, "#"], "1"],
    [[1.25, "#.#"], "1.3"], // HALF_UP on the exact value
    [[1.25, "#.0000"], "1.2500"],
    [[true], "true"],
    [[from(1, 2.0, -3.14)], "[1, 2, -3.14]"],
    [[from(2.22, 19.6, -0.43), "#"], "[2, 20, 0]"], // no "-0"
    [[from("Hello", "World", "!")], "[Hello, World, !]"],
  ])("str.tostring(%j) = %s", (args, want) => {
    expect(call("str.tostring", ...(args as unknown[]))).toBe(want);
  });
  it("str.format mixes types; {n,time} prints UTC", () => {
    // The manual's comment shows one space, but a " #.###" style keeps its leading space in
    // TradingView's real output (logs/str_test_010: "1.34 !=  1.3"), so there are two.
    expect(call("str.format", "{0}{1, number, #.###} ^ 2 > {2}: {3}", "Test: ", Math.E, 5, Math.E * Math.E > 5)).toBe(
      "Test:  2.718 ^ 2 > 5: true",
    );
    const t = 1279411200000;
    // As with number styles, the style text after the comma is kept verbatim (leading space included).
    expect(
      call(
        "str.format",
        "Year: {0, time, yyyy}, Month: {1, time, MM}, Day: {2, time, dd}, Time: {3, time, hh:mm:ss}",
        t,
        t,
        t,
        t,
      ),
    ).toBe("Year:  2010, Month:  07, Day:  18, Time:  12:00:00");
    expect(call("str.format", "{0,time,yyyy-MM-dd}", t)).toBe("2010-07-18");
    expect(call("str.format_time", t, undefined, "UTC")).toBe("2010-07-18T00:00:00+0000");
    expect(call("str.format_time", t, "HH:mm:ss, yyyy-MM-dd", "America/New_York")).toBe("20:00:00, 2010-07-17");
  });
  it("color components (color.new(color.maroon, 17))", () => {
    const c = call("color.new", 0x880e4fff, 17);
    expect(
      call(
        "str.format",
        "color (r = {0}, g = {1}, b = {2}, t = {3})",
        call("color.r", c),
        call("color.g", c),
        call("color.b", c),
        call("color.t", c),
      ),
    ).toBe("color (r = 136, g = 14, b = 79, t = 17)");
  });
});

describe("str.format_time", () => {
  it.each([
    ["yyyy-MM-dd HH:mm", "UTC-4", "2025-01-01 02:23"],
    ["HH:mm:ss", "UTC", "06:23:45"],
    ["yyyy/MM/dd", "UTC+1", "2025/01/01"],
    ["dd-MM-yyyy HH:mm", "UTC-8", "31-12-2024 22:23"],
    ["yyyy-MM-dd'T'HH:mm:ssZ", "America/New_York", "2025-01-01T01:23:45-0500"],
    ["EEE, d MMM yy h:mm a", "UTC", "Wed, 1 Jan 25 6:23 AM"],
    ["HH:mm:ss.SSS D", "UTC", "06:23:45.000 1"],
  ])("%s in %s", (p, tz, want) => {
    expect(formatTime(T, p, tz)).toBe(want);
  });
});

describe("str.* functions", () => {
  const call = caller();
  it.each([
    ["str.contains", ["abc", "b"], true],
    ["str.endswith", ["abc", "bc"], true],
    ["str.startswith", ["abc", "b"], false],
    ["str.length", ["Hello"], 5],
    ["str.lower", ["AbC"], "abc"],
    ["str.upper", ["AbC"], "ABC"],
    ["str.match", ["It's NASDAQ:AAPL!", "[\\w]+:[\\w]+"], "NASDAQ:AAPL"],
    ["str.match", ["abc", "\\d+"], ""],
    ["str.pos", ["Hello World", "World"], 6],
    ["str.repeat", ["?", 3, ","], "?,?,?"],
    ["str.replace", ["FTX:BTCUSD / FTX:BTCEUR", "FTX", "BINANCE", 1], "FTX:BTCUSD / BINANCE:BTCEUR"],
    ["str.replace_all", ["a-b-c", "-", "+"], "a+b+c"],
    ["str.substring", ["NASDAQ:AAPL", 7], "AAPL"],
    ["str.tonumber", ["-12.5"], -12.5],
    ["str.tonumber", ["+.5"], 0.5],
    ["str.trim", ["\t abc \n"], "abc"],
    ["str.trim", [null], ""],
  ])("%s(%j) = %j", (name, args, want) => {
    expect(call(name as string, ...(args as unknown[]))).toEqual(want);
  });
  it("na handling", () => {
    expect(call("str.pos", "abc", "z")).toBeNaN();
    expect(call("str.tonumber", "1,5")).toBeNaN();
    expect(call("str.tonumber", "$1,234.50")).toBeNaN();
    expect(call("str.tonumber", "1e5")).toBeNaN();
    expect(call("str.upper", null)).toBeNull();
    expect(call("str.split", "a,b", ",").values).toEqual(["a", "b"]);
  });
  it("substring: an end past the length takes the rest, a bad begin is a runtime error", () => {
    // an end past the string's length takes the rest (User Manual, Strings); a bad begin or end < begin throw
    expect(call("str.substring", "abc", 2, 9)).toBe("c");
    // str.pos of an na or empty substring is 0 (User Manual, Strings)
    expect(call("str.pos", "abc", null)).toBe(0);
    expect(call("str.pos", "abc", "")).toBe(0);
    expect(call("str.substring", "abc", Number.NaN, 2)).toBe("ab");
    expect(() => call("str.substring", "abc", 4, 9)).toThrow(PineRuntimeError);
    expect(() => call("str.substring", "abc", 2, 1)).toThrow(PineRuntimeError);
  });
});

describe("str Pine Logs ground truth (direct calls)", () => {
  const ctx = makeCtx({
    syminfo: { mintick: 1e-5, pointvalue: 1, timezone: "America/New_York", currency: "USD", type: "forex" },
  });
  const call = caller(ctx);
  it("str_test_001_str", () => {
    const got = [
      call("str.contains", "Hello World!", "!"),
      call("str.contains", "Hello World!", "?"),
      call("str.endswith", "Hello World!", "!"),
      call("str.endswith", "Hello World!", "?"),
      call("str.format_time", T, "yyyy-MM-dd HH:mm", "UTC-4"),
      call("str.length", "Hello World!"),
      call("str.lower", "Hello World!"),
      call("str.match", "Hello World!", "[\\w]+"),
      call("str.pos", "Hello World!", "World"),
      call("str.repeat", "Hello ", 3),
      call("str.replace", "Hello World!", "World", "Pyne"),
      call("str.replace_all", "Hello World! Hello World!", "World", "Pyne"),
      call("str.split", "Hello World!", " "),
      call("str.startswith", "Hello World!", "Hello"),
      call("str.substring", "Hello World!", 6, 11),
      call("str.tonumber", "123"),
      call("str.tonumber", "12.3"),
      call("str.tonumber", "abc"),
      call("str.tostring", 123),
      call("str.tostring", 12.3),
      call("str.tostring", "abc"),
      call("str.tostring", true),
      call("str.tostring", 123, "#.00"),
      call("str.tostring", -123, "00000.00"),
      call("str.trim", "  Hello World!  "),
      call("str.upper", "Hello World!"),
      // Pine Logs shows messages without trailing blanks: str.repeat("Hello ", 3) logs "Hello Hello Hello".
    ].map((v) => f("{0}", v).trimEnd());
    expect(got).toEqual(expectedMessages("str_test_001_str"));
  });

  it("str_test_010_str_format", () => {
    const s = (p: string, ...a: unknown[]) => f("{0}", call("str.format", p, ...a));
    const got = [
      s("{0}", 1.23456789),
      s("{0,number,#.#}", 1.34),
      s("{0,number,integer}", 1.34),
      s("{0,number,currency}", 1.34),
      s("{0,number,percent}", 0.5),
      s("Number {0} is not {1} to {2}", 1, "equal", 4),
      s("{0} != {0, number, #.#}", 1.34),
      s("{0, number, integer} is equal to 1, but {1, number, integer} is equal to 2", 1.34, 1.52),
      s("The cash turnover amounted to {0, number, currency}", 1340000),
      s("Expected return is {0, number, percent} - {1, number, percent}", 0.1, 0.2),
    ];
    expect(got).toEqual(expectedMessages("str_test_010_str_format"));
  });

  it("str_test_011_str_format_time (exchange time zone UTC-5 in January)", () => {
    const got = [
      call("str.format_time", T, "yyyy-MM-dd HH:mm", "UTC-4"),
      call("str.format_time", T, "HH:mm:ss", "UTC"),
      call("str.format_time", T, "yyyy/MM/dd", "UTC+1"),
      call("str.format_time", T, "dd-MM-yyyy HH:mm", "UTC-8"),
      call("str.format_time", T),
    ].map((v) => f("{0}", v));
    expect(got).toEqual(expectedMessages("str_test_011_str_format_time"));
  });
});

describe("HALF_UP fast path agrees with the exact BigInt rounding", () => {
  it("on random values and ties", async () => {
    const { roundedParts } = await import("../../src/builtins/str/decimal.js");
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = [0.125, 2.5, 1.005, 1.25, 0.995, 1e20, 123456.785, 5e-324];
    for (let i = 0; i < 2000; i++) values.push((rnd() - 0.5) * 10 ** (Math.floor(rnd() * 16) - 6));
    for (const x of values) {
      for (const d of [0, 1, 2, 3, 5, 10]) {
        // digits the shortest form already has are printed as they are (Java starts from
        // Double.toString's digits); only a value that needs rounding is rounded exactly
        const [m, e] = Math.abs(x).toExponential().split("e") as [string, string];
        const shortestFrac = Math.max(0, m.replace(".", "").length - 1 - Number(e));
        if (shortestFrac <= d) continue;
        const exact = scaledDigits(x, d, "half_up");
        const fast = roundedParts(x, d, "half_up");
        expect((fast.int + fast.frac).replace(/^0+(?=\d)/, "")).toBe(exact);
      }
    }
  });
  it("starts from the shortest round-trip digits like Java's DecimalFormat", async () => {
    const { roundedParts } = await import("../../src/builtins/str/decimal.js");
    // exact binary 1234567.89100000006146729 would print 1234567.8910000001 with 10 decimals
    expect(roundedParts(1234567.891, 10, "half_up")).toEqual({ int: "1234567", frac: "8910000000" });
    expect(roundedParts(0.000001234, 10, "half_up")).toEqual({ int: "0", frac: "0000012340" });
    // past the shortest digits the exact value decides: 1.005 is below the tie
    expect(roundedParts(1.005, 2, "half_up")).toEqual({ int: "1", frac: "00" });
    expect(roundedParts(1.25, 1, "half_up")).toEqual({ int: "1", frac: "3" });
  });
  it("str.tostring of a large float with decimals has no binary noise", () => {
    const call = caller();
    expect(call("str.tostring", 1234567.891)).toBe("1234567.891");
    expect(call("str.tostring", 16776445.2965)).toBe("16776445.2965");
  });
});

describe("User Manual: Strings > Modifying strings / Formatting strings", () => {
  const call = caller();
  it("empty targets replace zero-width boundaries", () => {
    const fmt = call(
      "str.replace",
      call("str.replace", call("str.replace_all", "012345", "", "}\n{"), "}\n", ""),
      "\n{",
      "",
      5,
    );
    expect(fmt).toBe("{0}\n{1}\n{2}\n{3}\n{4}\n{5}");
    expect(call("str.replace", "Hello world!", "o", "0", 1)).toBe("Hello w0rld!");
    expect(call("str.replace", "Hello world!", "H ", "_", 1)).toBe("Hello world!");
  });
  it("numeric presets and custom patterns", () => {
    const v = 1234.56789;
    expect(call("str.format", "{0}", v)).toBe("1,234.568");
    expect(call("str.format", "{0,number,integer}", v)).toBe("1,235");
    expect(call("str.format", "{0,number,#}", v)).toBe("1235");
    expect(call("str.format", "{0,number,currency}", v)).toBe("$1,234.57");
    expect(call("str.format", "{0,number,'$',###.0000}", v)).toBe("$1,234.5679");
    expect(call("str.format", "{0,number,percent}", v)).toBe("123,457%");
    expect(call("str.format", "{0,number,#,###.###%}", v)).toBe("123,456.789%");
  });
  it("str.format dates are UTC", () => {
    expect(call("str.format", "{0,date,yyyy-MM-dd}T{0,time,HH:mm:ssZ}", 1279411200000)).toBe(
      "2010-07-18T00:00:00+0000",
    );
  });
});
