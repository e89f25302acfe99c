// A minimal LSP client for the tests: starts `resin lsp` (the built package, as an editor does) and
// speaks JSON-RPC over its stdio through vscode-jsonrpc, collecting the diagnostics it publishes.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node.js";
import { ensureDist, ROOT } from "../server/dist.js";

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: { range: unknown; severity: number; message: string; source: string; code?: string }[];
}

export class LspClient {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly rpc: MessageConnection;
  private readonly published = new Map<string, PublishedDiagnostics[]>();
  private readonly waiters: (() => void)[] = [];

  constructor(args: string[] = [join(ROOT, "bin", "resin.js"), "lsp", "--stdio"]) {
    ensureDist();
    this.proc = spawn(process.execPath, args, { cwd: ROOT, stdio: "pipe" });
    this.rpc = createMessageConnection(
      new StreamMessageReader(this.proc.stdout),
      new StreamMessageWriter(this.proc.stdin),
    );
    this.rpc.onNotification("textDocument/publishDiagnostics", (p: PublishedDiagnostics) => {
      this.published.set(p.uri, [...(this.published.get(p.uri) ?? []), p]);
      for (const w of this.waiters.splice(0)) w();
    });
    this.rpc.listen();
  }

  async initialize(): Promise<{ capabilities: Record<string, unknown> }> {
    const r = await this.rpc.sendRequest<{ capabilities: Record<string, unknown> }>("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    await this.rpc.sendNotification("initialized", {});
    return r;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.rpc.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "pine", version, text },
    });
  }

  change(uri: string, version: number, changes: unknown[]): Promise<void> {
    return this.rpc.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.rpc.sendRequest<T>(method, params);
  }

  /** The diagnostics published for `uri` at `version` (waits for them, bounded). */
  async diagnostics(uri: string, version: number, timeoutMs = 20_000): Promise<PublishedDiagnostics> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.published.get(uri)?.find((p) => p.version === version);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} v${version}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.proc.on("exit", (code) => resolve(code)));
    await this.rpc.sendRequest("shutdown");
    await this.rpc.sendNotification("exit");
    const timer = setTimeout(() => this.proc.kill(), 5000);
    const code = await exited;
    clearTimeout(timer);
    this.rpc.dispose();
    return code;
  }
}
