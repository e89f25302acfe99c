// The language worker: the same LanguageService `resin lsp` answers from (src/lsp/service.ts), exposed
// to the editor through Comlink. The editor sends the whole text with each request (scripts are small
// and the store analyses a text once, whatever number of requests ask about it).

import * as Comlink from "comlink";
import type { Position } from "vscode-languageserver-types";
import { LanguageService } from "../../../src/lsp/service.js";

const URI = "inmemory://editor/script.pine";
const service = new LanguageService();

function at(text: string): void {
  service.open(URI, text);
}

const api = {
  diagnostics(text: string) {
    at(text);
    return service.diagnostics(URI);
  },
  completion(text: string, pos: Position) {
    at(text);
    return service.completion(URI, pos);
  },
  hover(text: string, pos: Position) {
    at(text);
    return service.hover(URI, pos);
  },
  signatureHelp(text: string, pos: Position) {
    at(text);
    return service.signatureHelp(URI, pos);
  },
  definition(text: string, pos: Position) {
    at(text);
    return service.definition(URI, pos);
  },
  format(text: string) {
    at(text);
    return service.format(URI);
  },
};

export type LanguageWorkerApi = typeof api;
Comlink.expose(api);
