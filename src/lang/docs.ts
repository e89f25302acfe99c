// Doc annotations: `//@version=N`, `//@description`, `//@function`, `//@param name text`, ... are
// comments to the lexer; here they become Program.version, Program.doc and the `doc` of the
// declarations they sit directly above.

import type { DocAnnotation, Program, Span, Stmt } from "./ast.js";
import { Codes, type DiagnosticSink } from "./diagnostics.js";
import type { Comment } from "./lexer.js";

const SCRIPT_TAGS = new Set(["description", "strategy_alert_message"]);
const NAMED_TAGS = new Set(["param", "field"]);
const VERSION = /^@version\s*=\s*(\d+)\s*$/;

function commentSpan(c: Comment): Span {
  const len = c.end - c.start;
  return { start: c.start, end: c.end, line: c.line, column: c.col, endLine: c.line, endColumn: c.col + len };
}

/** Parses `@tag [name] text` from a comment body; null when it is not an annotation. */
function parseAnnotation(c: Comment): DocAnnotation | null {
  const m = /^@([A-Za-z_]+)\s*(.*)$/.exec(c.text.trim());
  if (!m || m[1] === "version") return null;
  const tag = m[1]!;
  let text = m[2]!.trim();
  const ann: DocAnnotation = { tag, text, span: commentSpan(c) };
  if (NAMED_TAGS.has(tag)) {
    const n = /^(\S+)\s*(.*)$/.exec(text);
    if (n) {
      ann.name = n[1]!;
      text = n[2]!;
    }
    ann.text = text;
  }
  return ann;
}

/** Finds `//@version=N`: the version, or 6 with a warning when absent. */
export function readVersion(comments: Comment[], sink: DiagnosticSink): number {
  for (const c of comments) {
    const m = VERSION.exec(c.text.trim());
    if (!m) continue;
    const v = Number(m[1]);
    if (v !== 5 && v !== 6)
      sink.error(
        Codes.BadVersion,
        `Pine version ${v} is not supported: use //@version=5 or //@version=6`,
        commentSpan(c),
      );
    return v;
  }
  sink.warning(Codes.MissingVersion, "No //@version annotation: the script is read as //@version=6", {
    start: 0,
    end: 0,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
  });
  return 6;
}

/** Attaches annotations to the program and to top-level declarations. */
export function attachDocs(program: Program, comments: Comment[]): void {
  const ownLine = new Map<number, Comment>();
  for (const c of comments) {
    if (!c.ownLine) continue;
    ownLine.set(c.line, c);
    if (c.text.trimStart().startsWith("@")) {
      const ann = parseAnnotation(c);
      if (ann && SCRIPT_TAGS.has(ann.tag)) program.doc.push(ann);
    }
  }
  for (const stmt of program.body) attachTo(stmt, ownLine);
}

type Documented = Extract<Stmt, { doc?: DocAnnotation[] }>;

function attachTo(stmt: Stmt, ownLine: Map<number, Comment>): void {
  if (stmt.kind !== "VarDecl" && stmt.kind !== "FuncDecl" && stmt.kind !== "TypeDecl" && stmt.kind !== "EnumDecl")
    return;
  const run: Comment[] = [];
  for (let line = stmt.span.line - 1; ownLine.has(line); line--) run.unshift(ownLine.get(line)!);
  const doc: DocAnnotation[] = [];
  for (const c of run) {
    const ann = parseAnnotation(c);
    if (ann) {
      if (!SCRIPT_TAGS.has(ann.tag)) doc.push(ann);
      continue;
    }
    // a plain comment line right after an annotation continues its text
    const prev = doc[doc.length - 1];
    if (prev && !c.text.trimStart().startsWith("@") && c.line === prev.span.endLine + 1) {
      const more = c.text.trim();
      if (more) prev.text = prev.text ? `${prev.text} ${more}` : more;
      prev.span = { ...prev.span, end: c.end, endLine: c.line, endColumn: c.col + (c.end - c.start) };
    }
  }
  if (doc.length) (stmt as Documented).doc = doc;
}
