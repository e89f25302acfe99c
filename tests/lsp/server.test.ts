// `resin lsp` driven over stdio as an editor drives it: initialize, didOpen, incremental didChange and
// each request, with exact positions and contents. Diagnostics are compared with `resin check --json`.

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../server/dist.js";
import { LspClient } from "./client.js";

const URI = "file:///work/test.pine";
const SCRIPT = [
  "//@version=6",
  'indicator("LSP test")',
  "// inputs",
  'len = input.int(14, "Length")',
  "fast = ta.ema(close, len)",
  "type Bar",
  "    float price",
  "    int n = 0",
  "f(x, y) =>",
  "    z = x + y",
  "    z * 2",
  "b = Bar.new(close, 1)",
  "plot(f(fast, b.price))",
  "",
].join("\n");

const at = (line: number, character: number) => ({ textDocument: { uri: URI }, position: { line, character } });
const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});

let client: LspClient;

beforeAll(async () => {
  client = new LspClient();
  await client.initialize();
  await client.open(URI, SCRIPT, 1);
}, 120_000);

afterAll(async () => {
  expect(await client.close()).toBe(0);
});

describe("resin lsp over stdio", () => {
  it("declares its capabilities, with incremental sync", async () => {
    const probe = new LspClient();
    const init = await probe.initialize();
    expect(init.capabilities).toMatchObject({
      textDocumentSync: { openClose: true, change: 2 },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
      foldingRangeProvider: true,
      inlayHintProvider: true,
    });
    expect(await probe.close()).toBe(0);
  }, 120_000);

  it("publishes no diagnostics for a clean script", async () => {
    expect((await client.diagnostics(URI, 1)).diagnostics).toEqual([]);
  });

  it("hovers a builtin with its signature and types", async () => {
    const h = await client.request<{ contents: { value: string }; range: unknown }>("textDocument/hover", at(4, 11));
    expect(h.range).toEqual(range(4, 10, 4, 13));
    expect(h.contents.value).toContain("ta.ema(source, length) → series float");
    expect(h.contents.value).toContain("- `length` (simple int)");
  });

  it("hovers a user variable with its inferred type and qualifier", async () => {
    const h = await client.request<{ contents: { value: string } }>("textDocument/hover", at(4, 22));
    expect(h.contents.value).toBe("```pine\ninput int len\n```\n\n*variable*");
    const f = await client.request<{ contents: { value: string } }>("textDocument/hover", at(4, 1));
    expect(f.contents.value).toContain("series float fast");
  });

  it("goes to a function's definition and a field's", async () => {
    expect(await client.request("textDocument/definition", at(12, 5))).toEqual({ uri: URI, range: range(8, 0, 8, 1) });
    expect(await client.request("textDocument/definition", at(12, 17))).toEqual({
      uri: URI,
      range: range(6, 10, 6, 15),
    });
  });

  it("finds references", async () => {
    const refs = await client.request("textDocument/references", {
      ...at(3, 0),
      context: { includeDeclaration: true },
    });
    expect(refs).toEqual([
      { uri: URI, range: range(3, 0, 3, 3) },
      { uri: URI, range: range(4, 21, 4, 24) },
    ]);
  });

  it("renames a variable everywhere", async () => {
    expect(await client.request("textDocument/prepareRename", at(4, 2))).toEqual(range(4, 0, 4, 4));
    const edit = await client.request("textDocument/rename", { ...at(4, 2), newName: "quick" });
    expect(edit).toEqual({
      changes: {
        [URI]: [
          { range: range(4, 0, 4, 4), newText: "quick" },
          { range: range(12, 7, 12, 11), newText: "quick" },
        ],
      },
    });
  });

  it("lists the outline", async () => {
    const syms = await client.request<{ name: string; kind: number; children: { name: string }[] }[]>(
      "textDocument/documentSymbol",
      { textDocument: { uri: URI } },
    );
    expect(syms.map((s) => [s.name, s.kind, s.children.map((c) => c.name)])).toEqual([
      ["len", 13, []],
      ["fast", 13, []],
      ["Bar", 23, ["price", "n"]],
      ["f", 12, ["x", "y", "z"]],
      ["b", 13, []],
    ]);
    const ws = await client.request<{ name: string }[]>("workspace/symbol", { query: "ba" });
    expect(ws.map((s) => s.name)).toEqual(["Bar"]);
  });

  it("folds the type and the function", async () => {
    const folds = await client.request("textDocument/foldingRange", { textDocument: { uri: URI } });
    expect(folds).toEqual([
      { startLine: 5, endLine: 7 },
      { startLine: 8, endLine: 10 },
    ]);
  });

  it("shows inferred types as inlay hints", async () => {
    const hints = await client.request<{ position: unknown; label: string }[]>("textDocument/inlayHint", {
      textDocument: { uri: URI },
      range: range(0, 0, 13, 0),
    });
    expect(hints.map((h) => [h.position, h.label])).toEqual([
      [{ line: 3, character: 0 }, "input int "],
      [{ line: 4, character: 0 }, "series float "],
      [{ line: 9, character: 4 }, "series float "],
      [{ line: 11, character: 0 }, "series Bar "],
    ]);
  });

  it("gives semantic tokens for names", async () => {
    const t = await client.request<{ data: number[] }>("textDocument/semanticTokens/full", {
      textDocument: { uri: URI },
    });
    // first token: `indicator` (function, defaultLibrary) on line 1
    expect(t.data.slice(0, 5)).toEqual([1, 0, 9, 7, 4]);
    expect(t.data.length % 5).toBe(0);
  });

  it("completes namespace members after an incremental change, with signatures", async () => {
    await client.change(URI, 2, [{ range: range(13, 0, 13, 0), text: "x = ta." }]);
    const items = await client.request<{ label: string; detail?: string }[]>("textDocument/completion", at(13, 7));
    const sma = items.find((i) => i.label === "sma");
    expect(sma?.detail).toBe("ta.sma(source, length) → series float");
    expect(items.some((i) => i.label === "ema")).toBe(true);
    // the half-typed line is a syntax error, published for version 2
    expect((await client.diagnostics(URI, 2)).diagnostics.length).toBeGreaterThan(0);
  });

  it("gives signature help with the active parameter and named arguments inside a call", async () => {
    await client.change(URI, 3, [{ range: range(13, 0, 13, 7), text: "x = ta.sma(close, " }]);
    const help = await client.request<{ signatures: { label: string }[]; activeParameter: number }>(
      "textDocument/signatureHelp",
      at(13, 18),
    );
    expect(help.signatures.map((s) => s.label)).toEqual(["ta.sma(source, length) → series float"]);
    expect(help.activeParameter).toBe(1);
    const items = await client.request<{ label: string }[]>("textDocument/completion", at(13, 18));
    expect(items.slice(0, 2).map((i) => i.label)).toEqual(["source=", "length="]);
  });

  it("formats the document keeping comments, and a range", async () => {
    await client.change(URI, 4, [
      { range: range(0, 0, 14, 0), text: "//@version=6\nindicator('t')\n// keep me\na=close+1 // and me\nplot(a*2)\n" },
    ]);
    const edits = await client.request<{ newText: string }[]>("textDocument/formatting", {
      textDocument: { uri: URI },
      options: { tabSize: 4, insertSpaces: true },
    });
    expect(edits.map((e) => e.newText)).toEqual([
      "//@version=6\nindicator('t')\n// keep me\na = close + 1 // and me\nplot(a * 2)\n",
    ]);
    const ranged = await client.request("textDocument/rangeFormatting", {
      textDocument: { uri: URI },
      range: range(4, 0, 4, 3),
      options: { tabSize: 4, insertSpaces: true },
    });
    expect(ranged).toEqual([{ range: range(4, 0, 4, 9), newText: "plot(a * 2)" }]);
  });

  it("publishes every error, exactly what resin check reports", async () => {
    const src = '//@version=6\nindicator("t")\na = foo + 1\nplot(close)\nc = close + "x"\nd = ta.sma(close, "10")\n';
    const dir = mkdtempSync(join(tmpdir(), "resin-lsp-"));
    const file = join(dir, "three.pine");
    writeFileSync(file, src);
    let out = "";
    try {
      out = execFileSync(process.execPath, [join(ROOT, "bin", "resin.js"), "check", "--json", file], {
        encoding: "utf8",
      });
    } catch (e) {
      out = (e as { stdout: string }).stdout; // exit code 1: errors
    }
    const expected = JSON.parse(out) as {
      message: string;
      line: number;
      column: number;
      end_line: number;
      end_column: number;
    }[];
    const uri = "file:///work/three.pine";
    await client.open(uri, src, 1);
    const got = (await client.diagnostics(uri, 1)).diagnostics;
    expect(expected).toHaveLength(3);
    expect(got).toEqual(
      expected.map((d) => ({
        range: range(d.line - 1, d.column - 1, d.end_line - 1, d.end_column - 1),
        severity: 1,
        message: d.message,
        source: "resin",
      })),
    );
  });
});
