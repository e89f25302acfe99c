// The editor's language features, answered by the language worker (language.worker.ts, the services of
// `resin lsp`): completion, hover, signature help, go to definition (F12 or Ctrl/Cmd+click) and format
// on demand (Shift+Alt+F). Positions cross as LSP line/character pairs.

import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from "@codemirror/autocomplete";
import { type EditorState, type Extension, StateEffect, StateField } from "@codemirror/state";
import {
  EditorView,
  hoverTooltip,
  keymap,
  showTooltip,
  type Tooltip,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import * as Comlink from "comlink";
import type { CompletionItem, MarkupContent, Position } from "vscode-languageserver-types";
import type { LanguageWorkerApi } from "./language.worker.js";

let worker: Comlink.Remote<LanguageWorkerApi> | null = null;
function lang(): Comlink.Remote<LanguageWorkerApi> {
  worker ??= Comlink.wrap<LanguageWorkerApi>(
    new Worker(new URL("./language.worker.ts", import.meta.url), { type: "module", name: "resin-language" }),
  );
  return worker;
}

function toPos(state: EditorState, offset: number): Position {
  const line = state.doc.lineAt(offset);
  return { line: line.number - 1, character: offset - line.from };
}

function toOffset(state: EditorState, p: Position): number {
  const line = state.doc.line(Math.min(state.doc.lines, p.line + 1));
  return Math.min(line.to, line.from + p.character);
}

function markdownText(c: string | MarkupContent | undefined): string {
  if (!c) return "";
  return typeof c === "string" ? c : c.value;
}

/** A small markdown rendering: code fences as monospace blocks, the rest as text lines. */
function renderDoc(md: string): HTMLElement {
  const box = document.createElement("div");
  box.className = "cm-pine-doc";
  const parts = md.split(/```(?:pine)?\n?/);
  parts.forEach((part, i) => {
    const text = part.replace(/\n$/, "");
    if (!text.trim()) return;
    const el = document.createElement(i % 2 ? "pre" : "div");
    el.textContent = i % 2 ? text : text.replace(/\*\*|\*|`/g, "");
    el.style.margin = "2px 0";
    el.style.whiteSpace = "pre-wrap";
    if (i % 2) el.style.fontFamily = "ui-monospace, Menlo, Consolas, monospace";
    box.appendChild(el);
  });
  return box;
}

const KIND: Record<number, string> = {
  2: "method",
  3: "function",
  5: "property",
  6: "variable",
  7: "class",
  9: "namespace",
  10: "property",
  13: "enum",
  14: "keyword",
  20: "enum",
  21: "constant",
  25: "type",
};

async function complete(ctx: CompletionContext): Promise<CompletionResult | null> {
  const word = ctx.matchBefore(/[\w@]*/);
  const before = ctx.state.sliceDoc(Math.max(0, ctx.pos - 1), ctx.pos);
  if (!ctx.explicit && word?.from === word?.to && before !== "." && before !== "(" && before !== ",") return null;
  const items: CompletionItem[] = await lang().completion(ctx.state.doc.toString(), toPos(ctx.state, ctx.pos));
  const options: Completion[] = items.map((i) => ({
    label: i.label,
    type: KIND[i.kind ?? 6],
    detail: i.detail,
    apply: i.insertText,
    boost: i.sortText?.startsWith("!") ? 10 : i.sortText?.startsWith("0") ? 5 : 0,
    info: i.documentation ? () => renderDoc(markdownText(i.documentation)) : undefined,
  }));
  return { from: word ? word.from : ctx.pos, options, validFor: /^[\w@]*$/ };
}

const pineHover = hoverTooltip(async (view, pos) => {
  const h = await lang().hover(view.state.doc.toString(), toPos(view.state, pos));
  if (!h) return null;
  const from = h.range ? toOffset(view.state, h.range.start) : pos;
  const to = h.range ? toOffset(view.state, h.range.end) : pos;
  return {
    pos: from,
    end: to,
    above: true,
    create: () => ({ dom: renderDoc(markdownText(h.contents as MarkupContent)) }),
  };
});

// ------------------------------------------------------------------ signature help

const setSignature = StateEffect.define<Tooltip | null>();
const signatureField = StateField.define<Tooltip | null>({
  create: () => null,
  update: (value, tr) => {
    for (const e of tr.effects) if (e.is(setSignature)) return e.value;
    return value;
  },
  provide: (f) => showTooltip.from(f),
});

const signaturePlugin = ViewPlugin.fromClass(
  class {
    private seq = 0;
    update(u: ViewUpdate) {
      if (!u.docChanged && !u.selectionSet) return;
      const view = u.view;
      const pos = view.state.selection.main.head;
      const n = ++this.seq;
      void lang()
        .signatureHelp(view.state.doc.toString(), toPos(view.state, pos))
        .then((help) => {
          if (n !== this.seq) return;
          let tip: Tooltip | null = null;
          if (help?.signatures.length) {
            const sig = help.signatures[help.activeSignature ?? 0]!;
            const param = sig.parameters?.[help.activeParameter ?? 0];
            tip = {
              pos,
              above: true,
              create: () => {
                const dom = document.createElement("div");
                dom.className = "cm-pine-signature";
                dom.style.fontFamily = "ui-monospace, Menlo, Consolas, monospace";
                dom.style.padding = "2px 6px";
                const name = typeof param?.label === "string" ? param.label : "";
                const label = sig.label;
                const open = label.indexOf("(");
                const at = name ? label.indexOf(name, open) : -1;
                if (at >= 0) {
                  dom.append(label.slice(0, at));
                  const b = document.createElement("b");
                  b.textContent = name;
                  dom.append(b, label.slice(at + name.length));
                } else dom.textContent = label;
                if (help.signatures.length > 1) dom.append(`  (${help.signatures.length} overloads)`);
                return { dom };
              },
            };
          }
          view.dispatch({ effects: setSignature.of(tip) });
        })
        .catch(() => undefined);
    }
  },
);

// ------------------------------------------------------------------ definition and format

async function goToDefinition(view: EditorView, offset = view.state.selection.main.head): Promise<boolean> {
  const loc = await lang().definition(view.state.doc.toString(), toPos(view.state, offset));
  if (!loc) return false;
  const anchor = toOffset(view.state, loc.range.start);
  view.dispatch({ selection: { anchor, head: toOffset(view.state, loc.range.end) }, scrollIntoView: true });
  return true;
}

/** Formats the script (comments kept); nothing happens when it has syntax errors. */
export async function formatEditor(view: EditorView): Promise<boolean> {
  const text = view.state.doc.toString();
  const edits = await lang().format(text);
  const edit = edits[0];
  if (!edit || view.state.doc.toString() !== text) return false;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: edit.newText } });
  return true;
}

export function pineIntelligence(): Extension {
  return [
    autocompletion({ override: [complete], activateOnTyping: true }),
    pineHover,
    signatureField,
    signaturePlugin,
    keymap.of([
      { key: "F12", run: (v) => (void goToDefinition(v), true) },
      { key: "Shift-Alt-f", run: (v) => (void formatEditor(v), true) },
    ]),
    EditorView.domEventHandlers({
      mousedown: (e, view) => {
        if (!(e.ctrlKey || e.metaKey)) return false;
        const pos = view.posAtCoords({ x: e.clientX, y: e.clientY });
        if (pos === null) return false;
        void goToDefinition(view, pos);
        return true;
      },
    }),
  ];
}
