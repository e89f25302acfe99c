// The corpus under tests/corpus: realistic v5/v6 scripts covering spec/language.md. Each parses
// without diagnostics and round-trips through unparse.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { messages, pineFiles, read, roundTrip, shape, spanProblems } from "./helpers.js";

const dir = fileURLToPath(new URL("../corpus", import.meta.url));
const files = pineFiles(dir);

describe("corpus", () => {
  it("holds at least 150 scripts", () => {
    expect(files.length).toBeGreaterThanOrEqual(150);
  });

  it.each(files.map((f) => [f.slice(dir.length + 1), f]))("%s parses and round-trips", (_name, file) => {
    const { first, second, printed } = roundTrip(read(file));
    expect(messages(first)).toEqual([]);
    expect(messages(second), printed).toEqual([]);
    expect(shape(second.ast)).toBe(shape(first.ast));
    expect(spanProblems(read(file), first.ast)).toEqual([]);
  });
});
