// `resin lsp`: the language server over stdio on vscode-languageserver (JSON-RPC framing, capability
// negotiation, incremental document sync through TextDocuments). Every request is answered by the
// host-neutral LanguageService; diagnostics are pushed after each change (debounced a little, so a burst
// of keystrokes is analysed once).

import {
  type Connection,
  createConnection,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LanguageService, SEMANTIC_TOKENS_LEGEND } from "../service.js";

const DIAGNOSTIC_DELAY_MS = 50;

/** Serves until the client sends `exit` or closes stdin; resolves then. */
export function runServer(): Promise<void> {
  return new Promise((resolve) => {
    const connection = startServer();
    connection.onExit(() => resolve());
    process.stdin.on("end", () => resolve());
  });
}

export function startServer(): Connection {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const documents = new TextDocuments(TextDocument);
  const service = new LanguageService();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  // requests read the latest text: sync the store from the TextDocuments mirror on demand
  const sync = (uri: string): boolean => {
    const doc = documents.get(uri);
    if (!doc) return false;
    service.open(uri, doc.getText(), doc.version);
    return true;
  };
  const publish = (uri: string) => {
    pending.delete(uri);
    if (!sync(uri)) return;
    void connection.sendDiagnostics({
      uri,
      version: documents.get(uri)?.version,
      diagnostics: service.diagnostics(uri),
    });
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      completionProvider: { triggerCharacters: [".", "@", "(", ","], resolveProvider: false },
      hoverProvider: true,
      signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: [","] },
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
      semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
      foldingRangeProvider: true,
      inlayHintProvider: true,
    },
    serverInfo: { name: "resin-lsp", version: "0.1.0" },
  }));

  documents.onDidOpen((e) => publish(e.document.uri));
  documents.onDidChangeContent((e) => {
    clearTimeout(pending.get(e.document.uri));
    pending.set(
      e.document.uri,
      setTimeout(() => publish(e.document.uri), DIAGNOSTIC_DELAY_MS),
    );
  });
  documents.onDidClose((e) => {
    clearTimeout(pending.get(e.document.uri));
    pending.delete(e.document.uri);
    service.close(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  const on =
    <P extends { textDocument: { uri: string } }, R>(fn: (p: P) => R, empty: R) =>
    (p: P): R =>
      sync(p.textDocument.uri) ? fn(p) : empty;

  connection.onCompletion(on((p) => service.completion(p.textDocument.uri, p.position), []));
  connection.onHover(on((p) => service.hover(p.textDocument.uri, p.position), null));
  connection.onSignatureHelp(on((p) => service.signatureHelp(p.textDocument.uri, p.position), null));
  connection.onDefinition(on((p) => service.definition(p.textDocument.uri, p.position), null));
  connection.onReferences(
    on((p) => service.references(p.textDocument.uri, p.position, p.context.includeDeclaration), []),
  );
  connection.onPrepareRename(on((p) => service.prepareRename(p.textDocument.uri, p.position), null));
  connection.onRenameRequest((p) => {
    if (!sync(p.textDocument.uri)) return null;
    const r = service.rename(p.textDocument.uri, p.position, p.newName);
    if (typeof r === "string") throw new ResponseError(-32602, r);
    return r;
  });
  connection.onDocumentSymbol(on((p) => service.documentSymbols(p.textDocument.uri), []));
  connection.onWorkspaceSymbol((p) => {
    for (const d of documents.all()) sync(d.uri);
    return service.workspaceSymbols(p.query);
  });
  connection.onDocumentFormatting(on((p) => service.format(p.textDocument.uri), []));
  connection.onDocumentRangeFormatting(on((p) => service.formatRange(p.textDocument.uri, p.range), []));
  connection.languages.semanticTokens.on(on((p) => service.semanticTokens(p.textDocument.uri), { data: [] }));
  connection.onFoldingRanges(on((p) => service.foldingRanges(p.textDocument.uri), []));
  connection.languages.inlayHint.on(on((p) => service.inlayHints(p.textDocument.uri, p.range), []));

  documents.listen(connection);
  connection.listen();
  return connection;
}
