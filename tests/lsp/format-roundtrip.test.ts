// The formatter over every .pine file in the tree (examples/, bench/, tests/**): the formatted script
// parses to the same tree (spans aside), keeps every comment in order, and formatting it again changes
// nothing. Scripts with syntax errors are not formatted (format gives undefined) and are counted apart.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticSink, format, parse, tokenize } from "../../src/lang/index.js";
import { pineFiles, read, shape } from "../lang/helpers.js";

const root = join(import.meta.dirname, "../..");
const files = ["examples", "bench", "tests"].flatMap((d) => pineFiles(join(root, d)));
const commentTexts = (src: string) => tokenize(src, new DiagnosticSink()).comments.map((c) => c.text.trimEnd());

describe("format keeps comments and the tree", () => {
  it("finds the tree's scripts", () => {
    expect(files.length).toBeGreaterThan(600);
  });

  it("round-trips every script: same tree, same comments, idempotent", () => {
    const failures: string[] = [];
    let formatted = 0;
    for (const file of files) {
      const src = read(file);
      const out = format(src);
      if (out === undefined) {
        // only scripts the parser rejects are left as they are
        expect(parse(src).diagnostics.some((d) => d.severity === "error")).toBe(true);
        continue;
      }
      formatted++;
      const again = parse(out);
      const rel = file.slice(root.length + 1);
      if (again.diagnostics.some((d) => d.severity === "error")) failures.push(`${rel}: syntax error after formatting`);
      else if (shape(again.ast) !== shape(parse(src).ast)) failures.push(`${rel}: different tree`);
      else if (shape(commentTexts(out)) !== shape(commentTexts(src))) failures.push(`${rel}: comments differ`);
      else if (format(out) !== out) failures.push(`${rel}: not idempotent`);
    }
    expect(failures).toEqual([]);
    expect(formatted).toBeGreaterThan(600);
  });

  it("keeps own-line and end-of-line comments and blank-line groups", () => {
    const src = [
      "//@version=6",
      "// Moving averages",
      'indicator("t")',
      "",
      "",
      "// fast one",
      "fast=ta.sma(close,10)   // ten bars",
      "slow = ta.sma(close, 20)",
      "",
      "f(x) =>",
      "    // body",
      "    y = x*2 // double",
      "    y",
      "    // tail of f",
      "plot(f(fast-slow))",
      "// end",
    ].join("\n");
    expect(format(src)).toBe(
      [
        "//@version=6",
        "// Moving averages",
        'indicator("t")',
        "",
        "// fast one",
        "fast = ta.sma(close, 10) // ten bars",
        "slow = ta.sma(close, 20)",
        "",
        "f(x) =>",
        "    // body",
        "    y = x * 2 // double",
        "    y",
        "    // tail of f",
        "plot(f(fast - slow))",
        "// end",
        "",
      ].join("\n"),
    );
  });
});
