// The number-formatting fast paths (String(x) split instead of toExponential + BigInt, the default
// pattern's direct text, compiled str.format patterns, the mintick decimals memo) against the exact
// reference: a frozen copy of the code before them (tests/builtins/str-reference). Every output must
// be byte-identical, over adversarial and random doubles.
import { describe, expect, it } from "vitest";
import { rng } from "../ta/random.js";
import { PineArray, PineMatrix } from "../../src/core/values.js";
import { javaDoubleToString, roundedParts } from "../../src/builtins/str/decimal.js";
import { elementText, formatMessage } from "../../src/builtins/str/format.js";
import { decimalsOf, numberToString, SMALL_INT, SMALL_INT_TEXT } from "../../src/builtins/str/tostring.js";
import * as refDecimal from "./str-reference/decimal.js";
import * as refFormat from "./str-reference/format.js";
import * as refToString from "./str-reference/tostring.js";

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

function values(seed: number, randomCount: number): number[] {
  const r = rng(seed);
  const out: number[] = [
    0,
    -0,
    1,
    -1,
    2,
    10,
    100,
    0.5,
    -0.5,
    0.1,
    0.2,
    0.1 + 0.2,
    0.3,
    1.005,
    1.25,
    1.35,
    2.5,
    -2.5,
    0.125,
    0.375,
    1234567.891,
    -1234567.891,
    1 / 3,
    2 / 3,
    -1 / 3,
    Math.PI,
    Math.E,
    0.1234567891,
    0.12345678912,
    0.00000000005,
    0.00000000004,
    -0.00000000004,
    -0.00000000005,
    -0.0004,
    -0.004,
    -0.0049,
    -0.005,
    -0.0051,
    0.0000000001,
    0.00000000015,
    9.99999999995,
    9.999999999949,
    0.99999999999,
    -0.99999999999,
    99999.99999999999,
    2 ** 52,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    2 ** 60,
    2 ** 64,
    2 ** 70,
    1e15,
    1e16,
    1e17,
    123456789012345680000,
    999999999999999900000,
    1e20,
    1e21,
    1e21 - 65536 * 2,
    -1e21,
    1e22,
    1e300,
    -1e300,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    1e-6,
    1e-7,
    9.99e-7,
    1.5e-6,
    1.5e-7,
    1e-10,
    1e-11,
    1e-300,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    Number.MIN_VALUE * 3,
    Infinity,
    -Infinity,
    NaN,
    999.9999999999,
    999.99999999999,
    5183,
    2.5e6,
    999999,
    999999.9996,
    1e3 - 1e-13,
    1e6 - 1e-10,
    1e9 - 1e-7,
    1e12 - 1e-4,
    4294967295,
    4294967296,
    0.015,
    0.025,
    0.035,
    0.045,
    1.0000000000000002,
  ];
  for (let i = 0; i < randomCount; i++) {
    // any double (all exponents, subnormals, NaN payloads)
    U32[0] = (r() * 4294967296) >>> 0;
    U32[1] = (r() * 4294967296) >>> 0;
    out.push(F64[0]!);
    // decimal-looking values: k decimals, many magnitudes (prices, sizes, percents)
    const k = Math.floor(r() * 16);
    const mag = 10 ** Math.floor(r() * 12 - 4);
    out.push(Number(((r() - 0.5) * mag).toFixed(Math.min(k, 100))));
    // small and large integers, ticks, ties on the last printed digit
    out.push(Math.floor((r() - 0.5) * 2 ** Math.floor(r() * 64)));
    out.push(Math.round((r() - 0.3) * 100000) * 0.01);
    out.push((Math.floor(r() * 2000000) + 0.5) / 10 ** Math.floor(r() * 12));
  }
  return out;
}

const PATTERNS = [
  "#.##",
  "#",
  "0",
  "#.#",
  "0.00",
  "00000.00",
  "#,##0.00",
  "#,##0.###",
  "#,##0",
  "#.##########",
  "#.###############",
  "0.0000000000000000000",
  "#,###.####",
  "#,##,###.0",
  "0.###E0",
  "00.##E00",
  "#%",
  "#.##%",
  "#\u2030",
  "$#,##0.00;($#)",
  "'#'#.##' pts'",
  "\u00a4#,##0.00",
  "#." + "#".repeat(120),
  "0." + "0".repeat(105),
  "#.#;-#.#",
];
const FORMATS: (string | null | undefined)[] = [
  undefined,
  null,
  "",
  "inherit",
  "mintick",
  "price",
  "percent",
  "volume",
  ...PATTERNS,
];
const TICKS = [0.01, 0.25, 1e-5, 0.0001, 1, 0.5, 0.03125, 0.1 + 0.2, 5e-8, 0.001, 100, 0, -1, NaN];

describe("number formatting fast paths are byte-identical to the reference", () => {
  const vals = values(2026, 1500);

  it("roundedParts for every fraction length and both roundings", () => {
    for (const x of vals) {
      if (!Number.isFinite(x)) continue;
      for (const fd of [0, 1, 2, 3, 5, 8, 10, 15, 17, 20, 25, 100]) {
        for (const mode of ["half_even", "half_up"] as const) {
          const got = roundedParts(x, fd, mode);
          const want = refDecimal.roundedParts(x, fd, mode);
          if (got.int !== want.int || got.frac !== want.frac)
            expect({ x, fd, mode, got }).toEqual({ x, fd, mode, got: want });
        }
      }
    }
  });

  it("str.tostring with every format.* and pattern", () => {
    let n = 0;
    for (const x of vals) {
      for (const fmt of FORMATS) {
        const got = numberToString(x, fmt, 0.01);
        const want = refToString.numberToString(x, fmt, 0.01);
        if (got !== want) expect({ x, fmt, got }).toEqual({ x, fmt, got: want });
        n++;
      }
    }
    expect(n).toBe(vals.length * FORMATS.length);
  });

  it("the small integers' texts (a table) and the numbers around its ends, in the default format", () => {
    expect(SMALL_INT_TEXT.length).toBe(2 * SMALL_INT);
    for (let k = 0; k < SMALL_INT_TEXT.length; k++)
      expect(SMALL_INT_TEXT[k]).toBe(refToString.numberToString(k - SMALL_INT, undefined, 0.01));
    const edges = [
      -SMALL_INT - 1,
      -SMALL_INT,
      SMALL_INT - 1,
      SMALL_INT,
      -0,
      0.5,
      -0.5,
      1 + 2 ** -40,
      2 ** 31,
      -(2 ** 31),
    ];
    for (const x of edges) {
      for (const y of [x, x + 1e-9, x - 1e-9])
        for (const fmt of [undefined, null, "", "inherit"])
          expect(numberToString(y, fmt, 0.01)).toBe(refToString.numberToString(y, fmt, 0.01));
    }
  });

  it("format.mintick / format.price with many ticks, the decimals memo alternating ticks", () => {
    for (const x of vals.slice(0, 2000)) {
      for (const tick of TICKS) {
        for (const fmt of ["mintick", "price"]) {
          const got = numberToString(x, fmt, tick);
          const want = refToString.numberToString(x, fmt, tick);
          if (got !== want) expect({ x, tick, got }).toEqual({ x, tick, got: want });
        }
      }
    }
    for (const tick of [...TICKS, ...TICKS.slice().reverse(), ...vals.slice(0, 400)])
      expect(decimalsOf(tick)).toBe(refToString.decimalsOf(tick));
  });

  it("Java Double.toString text (float array elements, array.join)", () => {
    for (const x of vals) {
      const got = javaDoubleToString(x);
      const want = refDecimal.javaDoubleToString(x);
      if (got !== want) expect({ x, got }).toEqual({ x, got: want });
      for (const t of ["float", "int"]) expect(elementText(x, t)).toBe(refFormat.elementText(x, t));
    }
  });

  it("str.format: compiled patterns give the reference text and the same errors", () => {
    const floats = new PineArray<number>("float", vals.slice(0, 50));
    const ints = new PineArray<number>("int", [1, -2, 3, 2 ** 53]);
    const m = new PineMatrix<number>("float", 2, 3, vals.slice(50, 56));
    const msgs = [
      "{0}",
      "{0} {1}",
      "v={0,number,#.##} w={1,number}",
      "{0,number,integer}|{1,number,currency}|{2,number,percent}",
      "{0,number, #.#}",
      "{0,number,#,##0.00;(#)}",
      "'{0}' is {0}, it''s {1}",
      "{0}{1}{2}{3}{4}{5}",
      "{7} {0}",
      "{0,date} {0,time,short} {0,date,yyyy-MM-dd HH:mm}",
      "{0,number,'{'#'}'}",
      "{0,number,{#}}",
      "a}b {0}",
      " { 0 , NUMBER , #.# } ",
      "{0,foo}",
      "{0",
      "{a}",
      "x {0{1}}",
      "{0,number,#.#",
      "'{0",
      "{-1}",
      "{}",
      "{0,number,#.##}{1,number,#.##}",
    ];
    const r = rng(7);
    for (const msg of msgs) {
      for (let k = 0; k < 200; k++) {
        const pick = () => vals[Math.floor(r() * vals.length)]!;
        const args = [pick(), pick(), k % 3 === 0 ? floats : pick(), ints, m, k % 2 === 0 ? "s" : true, null];
        const argc = k % 8;
        let got: string;
        let want: string;
        try {
          want = refFormat.formatMessage(msg, args.slice(0, argc));
        } catch (e) {
          want = "throws " + String((e as Error).message);
        }
        try {
          got = formatMessage(msg, args.slice(0, argc));
        } catch (e) {
          got = "throws " + String((e as Error).message);
        }
        if (got !== want) expect({ msg, argc, got }).toEqual({ msg, argc, got: want });
      }
    }
  });
});
