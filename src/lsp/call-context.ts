// The call a cursor is inside: scanning back from the cursor over balanced brackets and strings to the
// unclosed `(`, the dotted name before it, and which argument the cursor is in. Works on the text, so it
// answers while the call is still being typed (the parser has no call node for `ta.sma(close, `).

export interface CallContext {
  /** `ta.sma`, `f`, `obj.method` (the dotted name before the parenthesis). */
  callee: string;
  /** Offset of the `(`. */
  open: number;
  /** Index of the argument the cursor is in (commas at depth 0 before it). */
  argIndex: number;
  /** The name of a named argument the cursor is in (`length = |`), if any. */
  argName?: string;
  /** Names of the named arguments written before the cursor. */
  named: string[];
}

export function enclosingCall(text: string, offset: number): CallContext | undefined {
  let depth = 0;
  const commas: number[] = [];
  const lineStart = (i: number) => text.lastIndexOf("\n", i - 1) + 1;
  // strings are skipped line by line: a quote count tells whether a position is inside one
  for (let i = offset - 1; i >= 0 && offset - i < 4000; i--) {
    const ch = text[i]!;
    if (ch === "\n") {
      // a comment earlier on a line is not code: nothing to do, the scan stays on code characters
      continue;
    }
    if (ch === '"' || ch === "'") {
      const j = text.lastIndexOf(ch, i - 1);
      if (j >= lineStart(i)) {
        i = j;
        continue;
      }
    }
    if (ch === ")" || ch === "]") depth++;
    else if (ch === "[") {
      if (depth === 0) return undefined;
      depth--;
    } else if (ch === "(") {
      if (depth > 0) {
        depth--;
        continue;
      }
      const m = /([A-Za-z_][\w.]*)\s*(?:<[^()]*>)?\s*$/.exec(text.slice(Math.max(0, i - 200), i));
      if (!m) return undefined;
      const args = text.slice(i + 1, offset);
      const segments = splitTop(args);
      const current = segments[segments.length - 1] ?? "";
      const nm = /^\s*([A-Za-z_]\w*)\s*=(?!=)/.exec(current);
      const named = segments
        .slice(0, -1)
        .map((s) => /^\s*([A-Za-z_]\w*)\s*=(?!=)/.exec(s)?.[1])
        .filter((x): x is string => !!x);
      return { callee: m[1]!, open: i, argIndex: commas.length, argName: nm?.[1], named };
    } else if (ch === "," && depth === 0) commas.push(i);
  }
  return undefined;
}

/** Splits an argument list's text at top-level commas. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}
