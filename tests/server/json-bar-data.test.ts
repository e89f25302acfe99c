// A body's top-level `data` read from its bytes straight into bar columns (src/server/json-bar-data.ts,
// through validate.ts readJsonBody with a host reader and a route that takes columns): the values
// JSON.parse gives, bit for bit, as Float64Array columns; the same acceptance and coded errors for
// the whole body; and anything that is not bars as numbers left to JSON.parse.
import { describe, expect, it } from "vitest";
import { cutBarData, exactQuotient, MIN_DATA_BYTES } from "../../src/server/json-bar-data.js";
import { readJsonBody, validateBody } from "../../src/server/validate.js";
import { OPTIMIZE_SCHEMA } from "../../src/server/schemas.js";
import { type BarColumns, isBarDataError, normalizeBars } from "../../src/core/bars.js";

const enc = new TextEncoder();
const FIELDS = ["time", "open", "high", "low", "close", "volume"] as const;
const req = () => new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" } });

/** What readJsonBody makes of `text` read by a host for a route taking columns: its value, or its error. */
async function viaBytes(text: string): Promise<{ value?: unknown; error?: [string, string] }> {
  try {
    return { value: await readJsonBody(req(), () => Promise.resolve(enc.encode(text)), true) };
  } catch (e) {
    const err = e as { code: string; message: string };
    return { error: [err.code, err.message] };
  }
}

/** The same through the Request's text() and JSON.parse, as without the byte reader. */
async function viaText(text: string): Promise<{ value?: unknown; error?: [string, string] }> {
  const r = new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" }, body: text });
  try {
    return { value: await readJsonBody(r) };
  } catch (e) {
    const err = e as { code: string; message: string };
    return { error: [err.code, err.message] };
  }
}

/** A value with `data` as columns of plain numbers (rows turned into columns), for comparing. */
function asColumns(value: unknown): unknown {
  const o = value as Record<string, unknown>;
  const d = o.data;
  let cols: Record<string, number[]>;
  if (Array.isArray(d)) {
    cols = {};
    for (const f of FIELDS) if (f in (d[0] as object)) cols[f] = d.map((r) => (r as Record<string, number>)[f]!);
  } else
    cols = Object.fromEntries(Object.entries(d as object).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]));
  return { ...o, data: cols };
}

/** Bit-for-bit equality of two values whose numbers may be -0 or NaN. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" || typeof b === "number") return Object.is(a, b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** A seeded generator of number texts in every form JSON allows. */
function numberTexts(seed: number, n: number, kind: "short" | "mixed"): string[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const forms = [
    () => (rnd() * 1000).toFixed(Math.floor(rnd() * 6)),
    () => String(Math.floor(rnd() * 1e6)),
    () => `-${(rnd() * 50).toFixed(3)}`,
    () =>
      `${Math.floor(rnd() * 9) + 1}.${"0".repeat(Math.floor(rnd() * 4))}${Math.floor(rnd() * 99)}e${Math.floor(rnd() * 5) - 2}`,
    () => `${(rnd() * 10).toFixed(2)}E+${Math.floor(rnd() * 3)}`,
    () => ["0", "-0", "0.0", "-0.000", "0e5", "1E-0", "12.50"][Math.floor(rnd() * 7)]!,
  ];
  const rare = [
    () => String(rnd() * 1000), // 15-17 significant digits
    () => "123456789012345678901234567890",
    () => "1e400",
    () => "-2.5e-330",
    () => "9007199254740993",
    () => "0.1e23",
    () => `${(rnd() * 10).toFixed(2)}e-25`,
  ];
  return Array.from({ length: n }, (_, i) =>
    kind === "mixed" && i % 11 === 5
      ? rare[Math.floor(rnd() * rare.length)]!()
      : forms[Math.floor(rnd() * forms.length)]!(),
  );
}

const N = 1200;
function rowsText(nums: string[], ws = "", volume = true): string {
  const fields = volume ? FIELDS : FIELDS.slice(0, 5);
  const rows = Array.from({ length: N }, (_, i) => {
    const order = i % 2 ? [...fields].reverse() : fields;
    return `{${order.map((f) => `${ws}"${f}"${ws}:${ws}${nums[i * 6 + FIELDS.indexOf(f)]}${ws}`).join(",")}}`;
  });
  return `{"script":"s","data":${ws}[${ws}${rows.join(`,${ws}`)}${ws}]${ws},"trials":8}`;
}
function columnsText(nums: string[], ws = ""): string {
  const cols = FIELDS.map((f, c) => `"${f}"${ws}:${ws}[${nums.slice(c * N, (c + 1) * N).join(`${ws},`)}]`);
  return `{"data":{${cols.join(",")}},"script":"s"}`;
}

describe("a body's bar data read from its bytes", () => {
  it("gives JSON.parse's numbers bit for bit, rows and number columns, as Float64Array columns", async () => {
    for (const [seed, kind] of [
      [1, "short"],
      [2, "mixed"],
      [3, "short"],
    ] as const) {
      const nums = numberTexts(seed, N * 6, kind);
      for (const text of [
        rowsText(nums),
        rowsText(nums, " \n\t", false),
        columnsText(nums),
        columnsText(nums, "\r\n "),
      ]) {
        expect(text.length).toBeGreaterThan(MIN_DATA_BYTES);
        const bytes = await viaBytes(text);
        const parsed = await viaText(text);
        const data = (bytes.value as { data: Record<string, unknown> }).data;
        for (const v of Object.values(data)) expect(v).toBeInstanceOf(Float64Array);
        expect(same(asColumns(bytes.value), asColumns(parsed.value))).toBe(true);
      }
    }
  });

  it("takes JSON.parse's way for data that is not bars as numbers, with the same value or coded error", async () => {
    const nums = numberTexts(4, N * 6, "short");
    const rows = rowsText(nums);
    const cols = columnsText(nums);
    const bodies = [
      // numbers JSON does not allow, inside the data: the body is refused as JSON.parse refuses it
      rows.replace(`"open":${nums[1]}`, `"open":01`),
      rows.replace(`"open":${nums[1]}`, `"open":1.`),
      rows.replace(`"open":${nums[1]}`, `"open":.5`),
      rows.replace(`"open":${nums[1]}`, `"open":+1`),
      rows.replace(`"open":${nums[1]}`, `"open":1e`),
      rows.replace(`"open":${nums[1]}`, `"open":NaN`),
      rows.replace(`"open":${nums[1]}`, `"open":-`),
      cols.replace("]", ",]"),
      rows.replace("}]", "},]"),
      // valid JSON that is not bars as numbers: a string, null, an unknown or escaped key, uneven rows
      rows.replace(`"open":${nums[1]}`, `"open":"${nums[1]}"`),
      rows.replace(`"open":${nums[1]}`, `"open":null`),
      rows.replace(`"open":${nums[1]}`, `"open":${nums[1]},"symbol":"X"`),
      rows.replace(`"open":${nums[1]}`, `"op\\u0065n":${nums[1]}`),
      rows.replace(`,"volume":${nums[5]}`, ""),
      rows.replace(`"open":${nums[1]}`, `"open":${nums[1]},"open":2`),
      cols.replace('"volume":[', '"volume":[null,'),
      cols.replace('"volume":[', '"vol":['),
      // the body around the data: malformed, duplicated data (the last one counts), data not at the top
      `${rows} x`,
      rows.replace('{"script"', '{"script" 1'),
      `${rows.slice(0, -1)},"data":[1,2]}`,
      `{"data":[1,2],${rows.slice(1)}`,
      `{"x":${rows}}`,
      `[${rows}]`,
      `\ufeff${rows}`,
    ];
    for (const text of bodies) {
      const bytes = await viaBytes(text);
      const parsed = await viaText(text);
      if (parsed.error) expect(bytes).toEqual(parsed);
      else expect(same(bytes.value, parsed.value) || same(asColumns(bytes.value), asColumns(parsed.value))).toBe(true);
    }
    // every refused one is JSON.parse's refusal (the data's bytes are checked as JSON's grammar)
    for (const text of bodies.slice(0, 9)) expect((await viaBytes(text)).error?.[0]).toBe("INVALID_BODY");
    // and only bars as numbers are cut
    for (const text of bodies.slice(9, 17)) expect(cutBarData(enc.encode(text))).toBeNull();
    // keys that are nearly a field's name are not one
    for (const key of ["tame", "opem", "t", "closed", "Open", "hig", "lows", "volumes", "v"]) {
      expect(cutBarData(enc.encode(rows.replace(`"open":${nums[1]}`, `"${key}":${nums[1]}`)))).toBeNull();
      expect(cutBarData(enc.encode(cols.replace('"open":[', `"${key}":[`)))).toBeNull();
    }
  });

  it("converts full-precision prices exactly (exactQuotient), or says it cannot, against JSON.parse", () => {
    let seed = 99;
    const rnd = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    /** The mantissa's parts and the power of ten of a plain decimal text of 16-19 significant digits. */
    const parts = (text: string) => {
      const [ip, fp = ""] = text.split(".");
      const digits = `${ip}${fp}`.replace(/^0+/, "");
      return {
        hi: Number(digits.slice(0, 15)),
        k: digits.length - 15,
        lo: Number(digits.slice(15)),
        p: 10 ** fp.length,
      };
    };
    let sure = 0;
    let unsure = 0;
    const texts: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      // JavaScript's shortest text of a computed price, and arbitrary 16-19 digit decimals
      let text = String(i % 2 ? rnd() * 1000 : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 9));
      if (i % 3 === 0) {
        let d = String(Math.floor(rnd() * 9) + 1);
        while (d.length < 16 + (i % 4)) d += Math.floor(rnd() * 10);
        const at = Math.floor(rnd() * (d.length - 1)) + 1;
        text = `${d.slice(0, at)}.${d.slice(at)}`;
      }
      texts.push(text.replace(/^-/, ""));
    }
    // halfway cases and neighbours of powers of two, which must be refused or right
    texts.push(
      "9007199254740993",
      "9007199254740993.0",
      "9007199254740995",
      "18014398509481985",
      "0.30000000000000004",
    );
    texts.push(
      "1.0000000000000002",
      "0.99999999999999989",
      "4503599627370496.5",
      "4503599627370497.5",
      "1234567890123456.75",
    );
    for (const text of texts) {
      if (/e/.test(text)) continue;
      const { hi, k, lo, p } = parts(text);
      if (k < 1 || k > 4 || !(p <= 1e22) || hi * 10 ** k + lo <= 2 ** 53 - 1) continue;
      const v = exactQuotient(hi, k, lo, p);
      if (Number.isNaN(v)) unsure++;
      else {
        sure++;
        if (!Object.is(v, JSON.parse(text))) expect([text, v]).toEqual([text, JSON.parse(text)]);
      }
    }
    expect(sure).toBeGreaterThan(100_000);
    expect(unsure).toBeLessThan(sure / 1000);
    // exact halfway cases between two doubles are ones it cannot tell (2^53 + 3, 2^52 + 1.5; 2^53 + 1
    // rounds to a power of two, which it leaves too)
    expect(exactQuotient(900719925474099, 1, 5, 1)).toBeNaN();
    expect(exactQuotient(450359962737049, 2, 75, 10)).toBeNaN();
    expect(exactQuotient(900719925474099, 1, 3, 1)).toBeNaN();
    // and a neighbour of one it can: 2^53 + 3.1 is 2^53 + 4
    expect(exactQuotient(900719925474099, 2, 51, 10)).toBe(JSON.parse("9007199254740995.1"));
    expect(JSON.parse("9007199254740995.1")).toBe(2 ** 53 + 4);
  });

  it("reads full-precision prices into columns, and leaves mostly-slow numbers and small bodies to JSON.parse", async () => {
    const precise = Array.from({ length: N * 6 }, (_, i) => String(100 + Math.sin(i) * 3.123456789012345));
    for (const text of [rowsText(precise), columnsText(precise)]) {
      const cut = cutBarData(enc.encode(text));
      expect(cut).not.toBeNull();
      expect(same(asColumns(await viaBytes(text).then((r) => r.value)), asColumns(JSON.parse(text)))).toBe(true);
    }
    // numbers past 19 digits or 10^22 take one JSON.parse of them all: mostly such numbers, JSON.parse's way
    const slow = Array.from({ length: N * 6 }, (_, i) => `${i + 1}.${"1234567890".repeat(2)}e-30`);
    expect(cutBarData(enc.encode(rowsText(slow)))).toBeNull();
    expect(cutBarData(enc.encode(columnsText(slow)))).toBeNull();
    const small = `{"data":[{"time":1,"open":1,"high":1,"low":1,"close":1}]}`;
    expect(cutBarData(enc.encode(small))).toBeNull();
    // a few such numbers among others are cut, with JSON.parse's values
    const nums = numberTexts(5, N * 6, "mixed");
    const cut = cutBarData(enc.encode(columnsText(nums)));
    expect(cut).not.toBeNull();
    expect(Array.from(cut!.columns.open!).every((v, i) => Object.is(v, JSON.parse(nums[N + i]!)))).toBe(true);
  });

  it("validates to what the rows and number arrays do (the same columns, the same bar errors)", async () => {
    const bars = Array.from({ length: N }, (_, i) => ({
      time: 1_700_000_000_000 + i * 60_000,
      open: 100 + (i % 7) * 0.25,
      high: 101 + (i % 5) * 0.25,
      low: 99 - (i % 3) * 0.25,
      close: 100.5,
    }));
    const good = JSON.stringify({ script: "s", data: bars, space: { params: [] } });
    const bad = JSON.stringify({
      script: "s",
      data: bars.map((b, i) => (i === 700 ? { ...b, high: 1 } : b)),
      space: { params: [] },
    });
    for (const text of [good, bad]) {
      const viaCut = validateBody((await viaBytes(text)).value, OPTIMIZE_SCHEMA);
      const viaJson = validateBody((await viaText(text)).value, OPTIMIZE_SCHEMA);
      expect(Array.isArray(viaJson.data) && viaCut.data instanceof Object && !Array.isArray(viaCut.data)).toBe(true);
      const a = normalizeBars(viaCut.data);
      const b = normalizeBars(viaJson.data);
      if (isBarDataError(b)) expect(a).toEqual(b);
      else {
        expect(isBarDataError(a)).toBe(false);
        for (const f of FIELDS) expect(same(Array.from((a as BarColumns)[f]), Array.from(b[f]))).toBe(true);
        expect((a as BarColumns).spacing).toBe(b.spacing);
      }
    }
    expect(isBarDataError(normalizeBars(validateBody((await viaBytes(bad)).value, OPTIMIZE_SCHEMA).data))).toBe(true);
  });
});
