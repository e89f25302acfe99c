// The language services over every .pine file in the tree: diagnostics equal what `resin check` computes
// (syntax, then the checker's on a clean parse), and every feature answers without throwing at each
// declaration; a definition always leads back to a declaration of the same name.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registry } from "../../src/builtins/index.js";
import { check } from "../../src/check/index.js";
import { checkSource } from "../../src/lang/index.js";
import { LanguageService } from "../../src/lsp/service.js";
import { pineFiles, read } from "../lang/helpers.js";

const root = join(import.meta.dirname, "../..");
const files = ["examples", "bench", "tests"].flatMap((d) => pineFiles(join(root, d)));

function cliDiagnostics(src: string) {
  const { ast, diagnostics } = checkSource(src);
  // as `resin check` calls it (src/cli/check.ts): diagnostics only, so v5 warnings are included
  if (!diagnostics.some((d) => d.severity === "error"))
    diagnostics.push(...check(ast, registry, [], { diagnosticsOnly: true }).diagnostics);
  return diagnostics.map((d) => `${d.line}:${d.column}-${d.end_line}:${d.end_column} ${d.message}`);
}

describe("language services over the tree's scripts", () => {
  it("give resin check's diagnostics and answer every feature", () => {
    const svc = new LanguageService();
    const failures: string[] = [];
    for (const file of files) {
      const src = read(file);
      const uri = `file://${file}`;
      svc.open(uri, src, 1);
      const rel = file.slice(root.length + 1);
      const got = svc
        .diagnostics(uri)
        .map(
          (d) =>
            `${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${d.message}`,
        );
      if (JSON.stringify(got) !== JSON.stringify(cliDiagnostics(src))) failures.push(`${rel}: diagnostics differ`);
      svc.documentSymbols(uri);
      svc.semanticTokens(uri);
      svc.foldingRanges(uri);
      svc.inlayHints(uri, { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } });
      const a = svc.documents.analysis(uri)!;
      for (const s of a.index.symbols) {
        const pos = a.lines.positionAt(s.nameSpan.start);
        const def = svc.definition(uri, pos);
        if (!def || a.text.slice(a.lines.offsetAt(def.range.start), a.lines.offsetAt(def.range.end)) !== s.name)
          failures.push(`${rel}: definition of ${s.name} at ${pos.line + 1}:${pos.character + 1}`);
        svc.hover(uri, pos);
        svc.completion(uri, pos);
        svc.signatureHelp(uri, pos);
      }
      svc.close(uri);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
