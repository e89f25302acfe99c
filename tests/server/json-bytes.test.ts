// A body parsed from its bytes with its long strings cut out of the text (src/server/json-bytes.ts,
// through validate.ts readJsonBody with a host reader): the same value JSON.parse gives of the text
// the Request would read, the same coded errors, and a data object's base64 bar columns decoded as
// validate.ts decodes them.
import { describe, expect, it } from "vitest";
import { base64Column } from "../../src/cli/bench-optimize.js";
import { cutLongStrings, MIN_CUT_BYTES } from "../../src/server/json-bytes.js";
import { readJsonBody, validateBody } from "../../src/server/validate.js";
import { OPTIMIZE_SCHEMA } from "../../src/server/schemas.js";

const enc = new TextEncoder();
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));
const req = () => new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" } });

/** What readJsonBody makes of `bytes` read by a host: its value, or its error's code and message. */
async function viaBytes(bytes: Uint8Array, columns = false): Promise<unknown> {
  try {
    return { value: await readJsonBody(req(), () => Promise.resolve(bytes), columns) };
  } catch (e) {
    const err = e as { code: string; message: string };
    return { error: [err.code, err.message] };
  }
}

/** The same through the Request's text(), as before the byte reader. */
async function viaText(bytes: Uint8Array): Promise<unknown> {
  const r = new Request("http://x/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: bytes as BodyInit,
  });
  try {
    return { value: await readJsonBody(r) };
  } catch (e) {
    const err = e as { code: string; message: string };
    return { error: [err.code, err.message] };
  }
}

const prices = Array.from({ length: 700 }, (_, i) => 100 + Math.sin(i) * 3.123456789012345);
const col = base64Column(prices);
const long = "Q".repeat(MIN_CUT_BYTES + 3);
if (col.length < MIN_CUT_BYTES) throw new Error("the test column must be long enough to be cut");

describe("a JSON body parsed from its bytes", () => {
  it("gives the value JSON.parse gives of the Request's text, and the same coded errors", async () => {
    // (`col` is a bar column and is cut out; `long` is a long string that is not one and stays)
    const bodies: Uint8Array[] = [
      enc.encode(JSON.stringify({ script: "s", data: { time: col, open: col, close: col }, space: { a: 1 } })),
      enc.encode(JSON.stringify({ a: [col, 1, [col, { b: col }], null, true], c: { [col]: col }, d: long })),
      // long tokens that stay in the text: an escape, a non-ASCII character, a key, a control character
      enc.encode(JSON.stringify({ a: `${col}\n${col}`, b: `é${col}`, c: `${col}"q`, [col]: 1, e: col })),
      enc.encode(`{"a":"${col}\\\\","b":"${col}\\"${col}","c":"${col}\/"}`),
      enc.encode(`{"a":"${col}\u0001","b":"\u0001${col}","c":"${col}"}`),
      cat(new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode(`{"a":"${col}"}`)),
      cat(enc.encode(`{"x":"`), new Uint8Array([0xff, 0xc3]), enc.encode(`","a":"${col}"}`)),
      cat(enc.encode(`{"a":"${col.slice(0, 100)}`), new Uint8Array([0xc3, 0xa9]), enc.encode(`${col.slice(102)}"}`)),
      enc.encode(`{"__proto__":"${col}","a":{"__proto__":["${col}"]}}`),
      enc.encode(`  \r\n\t{ "a" : "${col}" , "b" :\n"${col}" }  `),
      enc.encode(`["${col}", "${col}"]`),
      enc.encode(`"${col}"`),
      // malformed around or after a long token, unterminated, empty
      enc.encode(`{"a":"${col}" "b":1}`),
      enc.encode(`{"a":"${col}",}`),
      enc.encode(`{"a":"${col}`),
      enc.encode(`{"a":1"${col}"}`),
      enc.encode(`{"a":"${col}\u0001"}`),
      enc.encode(`{"a":"${col.slice(0, 200)}\u0001${col.slice(201)}"}`),
      enc.encode("   "),
      new Uint8Array(0),
      enc.encode(JSON.stringify({ data: Array.from({ length: 3000 }, (_, i) => ({ time: i, open: 1 })) })),
    ];
    for (const [i, body] of bodies.entries()) {
      const want = await viaText(body);
      expect(await viaBytes(body)).toEqual(want);
      // (with columns on, the same where data holds no base64 bar columns: all but the first)
      if (i > 0) expect(await viaBytes(body, true)).toEqual(want);
    }
  });

  it("cuts the long tokens that are bar columns out of the text (not keys, not other strings)", () => {
    const body = enc.encode(JSON.stringify({ a: long, b: `${col}\n`, c: `é${col}`, [col]: col, d: [col, 1] }));
    const cut = cutLongStrings(body);
    expect(cut?.text).toEqual([col, col]);
    expect(cut!.column.map((c) => c.length)).toEqual([prices.length, prices.length]);
    expect(cut!.rest.length).toBeLessThan(body.length - 2 * col.length + 200);
    expect(cutLongStrings(enc.encode(JSON.stringify({ a: "short", b: [1, 2, 3], c: long })))).toBeNull();
  });

  it("hands a data object's base64 bar columns over decoded, which validate to what the strings do", async () => {
    const cols = {
      time: base64Column(prices.map((_, i) => 1.7e12 + i * 60_000)),
      open: col,
      high: col,
      low: col,
      close: col,
    };
    const body = { script: "s", data: { ...cols, volume: prices }, space: { params: [] }, fixed_inputs: { note: col } };
    const bytes = enc.encode(JSON.stringify(body));
    const parsed = (await readJsonBody(req(), () => Promise.resolve(bytes), true)) as typeof body;
    expect(parsed.data.close).toBeInstanceOf(Float64Array);
    expect(parsed.data.volume).toEqual(prices);
    // outside the data object a column stays the string it was
    expect(parsed.fixed_inputs.note).toBe(col);
    const want = validateBody(JSON.parse(JSON.stringify(body)), OPTIMIZE_SCHEMA);
    expect(validateBody(parsed, OPTIMIZE_SCHEMA)).toEqual(want);
    // a column that is not one stays a string, and is refused with its coded error as before
    const bad = enc.encode(JSON.stringify({ ...body, data: { ...cols, low: `${long}QQQ` } }));
    const badParsed = await readJsonBody(req(), () => Promise.resolve(bad), true);
    expect((badParsed as typeof body).data.low).toBe(`${long}QQQ`);
    expect(() => validateBody(badParsed, OPTIMIZE_SCHEMA)).toThrow(
      expect.objectContaining({ code: "INVALID_FIELD", details: expect.objectContaining({ column: "low" }) }),
    );
  });
});
