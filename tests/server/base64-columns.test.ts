// Bar columns sent as base64 float64 strings (src/server/validate.ts decodeColumn): decoded to the
// same doubles with Node's Buffer and without it (atob, as a host without Buffer decodes them), and a
// string that is not such a column is refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { base64Column } from "../../src/cli/bench-optimize.js";

const SCHEMA = [{ name: "data", type: "bars" as const, required: true }];

const b64 = base64Column;

async function validator(withBuffer: boolean) {
  vi.resetModules();
  if (!withBuffer) vi.stubGlobal("Buffer", undefined);
  const { validateBody } = await import("../../src/server/validate.js");
  vi.unstubAllGlobals();
  return validateBody;
}

afterEach(() => vi.unstubAllGlobals());

describe("base64 float64 bar columns", () => {
  it("decode to the doubles sent (-0 and NaN included), with and without Buffer", async () => {
    const decoders = [await validator(true), await validator(false)];
    const column = fc.array(fc.double(), { minLength: 0, maxLength: 40 });
    fc.assert(
      fc.property(column, (xs) => {
        const data = { time: b64(xs), open: xs, high: b64(xs), low: b64(xs), close: b64(xs), volume: b64(xs) };
        for (const validate of decoders) {
          const out = validate({ data }, SCHEMA).data as Record<string, Float64Array>;
          expect(out.time).toBeInstanceOf(Float64Array);
          expect(Array.from(out.close).map((x) => (Object.is(x, -0) ? "-0" : x))).toEqual(
            xs.map((x) => (Object.is(x, -0) ? "-0" : x)),
          );
          expect(out.open).toBe(xs);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("refuse a string that is not base64 of whole doubles (INVALID_FIELD naming the column)", async () => {
    const cols = { time: b64([1, 2]), open: b64([1, 1]), high: b64([2, 2]), low: b64([0, 0]), close: b64([1, 1]) };
    for (const validate of [await validator(true), await validator(false)]) {
      for (const [column, value] of [
        ["open", "not base64!"],
        ["high", Buffer.from([1, 2, 3]).toString("base64")],
        ["low", "QUJD"],
        ["open", `${b64([1, 1]).slice(0, 8)} ${b64([1, 1]).slice(9)}`],
        ["high", `${b64([2, 2]).slice(0, -4)}!!!!`],
        ["close", b64([1])],
        // the URL-safe alphabet (RFC 4648 section 5): Buffer decodes it, atob does not; refused on both
        ["low", b64([0.1, 0.2]).replace("+", "-")],
        ["close", Buffer.from(new Uint8Array(16).fill(0xff)).toString("base64").replace(/\//g, "_")],
      ] as const) {
        expect(() => validate({ data: { ...cols, [column]: value } }, SCHEMA)).toThrow(
          expect.objectContaining({ code: "INVALID_FIELD", details: expect.objectContaining({ column }) }),
        );
      }
    }
  });
});
