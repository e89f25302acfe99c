// The open documents: text and version per uri, analysed lazily once per version (diagnostics on each
// change, then every request on the same text reuses the analysis).

import { type Analysis, analyze } from "./analysis.js";

interface Entry {
  text: string;
  version: number;
  analysis?: Analysis;
}

export class DocumentStore {
  private readonly docs = new Map<string, Entry>();

  set(uri: string, text: string, version = 0): void {
    const prev = this.docs.get(uri);
    if (prev && prev.text === text) {
      prev.version = version;
      return;
    }
    this.docs.set(uri, { text, version });
  }

  delete(uri: string): void {
    this.docs.delete(uri);
  }

  has(uri: string): boolean {
    return this.docs.has(uri);
  }

  analysis(uri: string): Analysis | undefined {
    const e = this.docs.get(uri);
    if (!e) return undefined;
    e.analysis ??= analyze(e.text);
    return e.analysis;
  }

  *all(): Iterable<[string, Analysis]> {
    for (const uri of this.docs.keys()) yield [uri, this.analysis(uri)!];
  }
}
