// The language service: every editor feature over a store of open documents, host-neutral (no Node
// imports), so `resin lsp` (node/server.ts) and the chart app's worker answer from the same code.

import type {
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  FoldingRange,
  Hover,
  InlayHint,
  Location,
  Position,
  Range,
  SemanticTokens,
  SignatureHelp,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-types";
import { toLspDiagnostics } from "./analysis.js";
import { complete } from "./completion.js";
import { DocumentStore } from "./documents.js";
import { foldingRanges } from "./folding.js";
import { formatDocument, formatRange } from "./formatting.js";
import { hover } from "./hover.js";
import { inlayHints } from "./inlay-hints.js";
import { definition, prepareRename, references, rename } from "./navigation.js";
import { documentSymbols, workspaceSymbols } from "./outline.js";
import { semanticTokens } from "./semantic-tokens.js";
import { signatureHelp } from "./signature-help.js";

export class LanguageService {
  readonly documents = new DocumentStore();

  open(uri: string, text: string, version = 0): void {
    this.documents.set(uri, text, version);
  }

  close(uri: string): void {
    this.documents.delete(uri);
  }

  private a(uri: string) {
    const a = this.documents.analysis(uri);
    if (!a) throw new Error(`document not open: ${uri}`);
    return a;
  }

  diagnostics(uri: string): Diagnostic[] {
    return toLspDiagnostics(this.a(uri));
  }
  completion(uri: string, pos: Position): CompletionItem[] {
    return complete(this.a(uri), pos);
  }
  hover(uri: string, pos: Position): Hover | null {
    return hover(this.a(uri), pos);
  }
  signatureHelp(uri: string, pos: Position): SignatureHelp | null {
    return signatureHelp(this.a(uri), pos);
  }
  definition(uri: string, pos: Position): Location | null {
    return definition(this.a(uri), uri, pos);
  }
  references(uri: string, pos: Position, includeDeclaration = true): Location[] {
    return references(this.a(uri), uri, pos, includeDeclaration);
  }
  prepareRename(uri: string, pos: Position): Range | null {
    return prepareRename(this.a(uri), pos);
  }
  rename(uri: string, pos: Position, newName: string): WorkspaceEdit | string | null {
    return rename(this.a(uri), uri, pos, newName);
  }
  documentSymbols(uri: string): DocumentSymbol[] {
    return documentSymbols(this.a(uri));
  }
  workspaceSymbols(query: string): SymbolInformation[] {
    return workspaceSymbols(this.documents.all(), query);
  }
  format(uri: string): TextEdit[] {
    return formatDocument(this.a(uri));
  }
  formatRange(uri: string, range: Range): TextEdit[] {
    return formatRange(this.a(uri), range);
  }
  semanticTokens(uri: string): SemanticTokens {
    return semanticTokens(this.a(uri));
  }
  foldingRanges(uri: string): FoldingRange[] {
    return foldingRanges(this.a(uri));
  }
  inlayHints(uri: string, range: Range): InlayHint[] {
    return inlayHints(this.a(uri), range);
  }
}

export { LEGEND as SEMANTIC_TOKENS_LEGEND } from "./semantic-tokens.js";
