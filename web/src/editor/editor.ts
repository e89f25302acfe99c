// The script editor: CodeMirror 6 with Pine highlighting, parser diagnostics as you type (debounced
// by the linter), completion, hover, signature help, go to definition and format (intelligence.ts, the
// services of `resin lsp` in a worker), Ctrl/Cmd+Enter to run, and a change callback for saving the script.

import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { EditorState, Prec } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { linter, lintGutter, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { tags as t } from "@lezer/highlight";
import type { Text } from "@codemirror/state";
import type { Diagnostic } from "../../../src/lang/ast.js";
import { pineIntelligence } from "./intelligence.js";
import { pineLanguage } from "./pine-language.js";

const pineHighlight = HighlightStyle.define([
  { tag: t.comment, color: "#7a8599", fontStyle: "italic" },
  { tag: t.meta, color: "#9a6fb0" },
  { tag: t.keyword, color: "#c2185b", fontWeight: "600" },
  { tag: t.string, color: "#2e7d32" },
  { tag: [t.number, t.atom], color: "#d35400" },
  { tag: t.typeName, color: "#00838f" },
  { tag: t.namespace, color: "#1565c0" },
  { tag: t.macroName, color: "#6a1b9a", fontWeight: "600" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "#1565c0" },
  { tag: t.special(t.variableName), color: "#ef6c00" },
  { tag: t.operator, color: "#555" },
]);

/** Maps 1-based line/column diagnostics onto document offsets, clamped to the document. */
export function toCmDiagnostics(doc: Text, diags: readonly Diagnostic[]): CmDiagnostic[] {
  const pos = (line: number, col: number): number => {
    const l = doc.line(Math.min(Math.max(1, line || 1), doc.lines));
    return Math.min(l.to, l.from + Math.max(0, (col || 1) - 1));
  };
  return diags.map((d) => {
    const from = pos(d.line, d.column);
    let to = pos(d.end_line || d.line, d.end_column || d.column);
    if (to <= from) to = Math.min(doc.length, from + 1);
    const severity = d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "info";
    return { from, to, severity, message: d.code ? `${d.code}: ${d.message}` : d.message };
  });
}

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  diagnose: (source: string) => Diagnostic[] | Promise<Diagnostic[]>;
  onRun: () => void;
  onChange: (source: string) => void;
  onDiagnostics?: (diags: Diagnostic[]) => void;
}

export function createEditor(o: EditorOptions): EditorView {
  const pineLinter = linter(
    async (view) => {
      const source = view.state.doc.toString();
      let diags: Diagnostic[];
      try {
        diags = await o.diagnose(source);
      } catch (e) {
        diags = [
          {
            severity: "error",
            message: `parser crashed: ${(e as Error).message}`,
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
          },
        ];
      }
      o.onDiagnostics?.(diags);
      return toCmDiagnostics(view.state.doc, diags);
    },
    { delay: 350 },
  );
  return new EditorView({
    parent: o.parent,
    doc: o.doc,
    extensions: [
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (o.onRun(), true), preventDefault: true }])),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      EditorState.allowMultipleSelections.of(true),
      indentOnInput(),
      indentUnit.of("    "),
      bracketMatching(),
      highlightActiveLine(),
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      pineLanguage,
      syntaxHighlighting(pineHighlight),
      pineLinter,
      lintGutter(),
      pineIntelligence(),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) o.onChange(u.state.doc.toString());
      }),
      EditorView.theme({
        "&": { height: "100%", fontSize: "13px" },
        ".cm-scroller": { fontFamily: "ui-monospace, Menlo, Consolas, monospace" },
      }),
    ],
  });
}

export function setEditorText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

export { formatEditor } from "./intelligence.js";
