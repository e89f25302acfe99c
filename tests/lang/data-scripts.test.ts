// Every script the repository ships as data (TradingView conformance cases, bench scripts, examples)
// parses cleanly and survives parse -> unparse -> parse unchanged.
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH, ROOT, TRADINGVIEW } from "../helpers/data.js";
import { messages, pineFiles, read, roundTrip, shape, spanProblems } from "./helpers.js";

const ROOTS = [TRADINGVIEW, BENCH, join(ROOT, "examples")];
const files = ROOTS.flatMap((r) => pineFiles(r));

describe("shipped .pine scripts", () => {
  it("finds the conformance, bench and example scripts", () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))("%s parses and round-trips", (_name, file) => {
    const { first, second } = roundTrip(read(file));
    expect(messages(first)).toEqual([]);
    expect(first.ast.body.length).toBeGreaterThan(0);
    expect(messages(second)).toEqual([]);
    expect(shape(second.ast)).toBe(shape(first.ast));
    expect(spanProblems(read(file), first.ast)).toEqual([]);
  });
});
