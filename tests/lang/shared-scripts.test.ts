// Every script shipped in /work/shared (TradingView conformance cases, benchmarks) parses cleanly
// and survives parse -> unparse -> parse unchanged.
import { describe, expect, it } from "vitest";
import { messages, pineFiles, read, roundTrip, shape, spanProblems } from "./helpers.js";

const ROOTS = ["/work/shared/conformance", "/work/shared/bench"];
const files = ROOTS.flatMap((r) => pineFiles(r));

describe("shared .pine scripts", () => {
  it("finds the conformance and bench scripts", () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files.map((f) => [f.replace("/work/shared/", ""), f]))("%s parses and round-trips", (_name, file) => {
    const { first, second } = roundTrip(read(file));
    expect(messages(first)).toEqual([]);
    expect(first.ast.body.length).toBeGreaterThan(0);
    expect(messages(second)).toEqual([]);
    expect(shape(second.ast)).toBe(shape(first.ast));
    expect(spanProblems(read(file), first.ast)).toEqual([]);
  });
});
