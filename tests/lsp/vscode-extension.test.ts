// editors/vscode: the manifest declares the Pine language, grammar, snippets, commands and the client
// entry; the grammar, language configuration and snippets are valid JSON with what the manifest promises;
// and the server the packaged client starts (src/server.js's serverOptions, no VS Code needed) answers
// an LSP initialize over stdio. Installs nothing.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { ensureDist, ROOT } from "../server/dist.js";

const EXT = join(ROOT, "editors", "vscode");
const json = (rel: string) => JSON.parse(readFileSync(join(EXT, rel), "utf8"));
const manifest = json("package.json");

describe("the VS Code extension", () => {
  it("declares the language, grammar, snippets, commands and entry", () => {
    expect(manifest.main).toBe("./src/extension.js");
    expect(manifest.engines.vscode).toMatch(/^\^1\./);
    expect(manifest.contributes.languages).toEqual([
      expect.objectContaining({ id: "pine", extensions: [".pine"], configuration: "./language-configuration.json" }),
    ]);
    expect(manifest.contributes.grammars).toEqual([
      { language: "pine", scopeName: "source.pine", path: "./syntaxes/pine.tmLanguage.json" },
    ]);
    expect(manifest.contributes.snippets).toEqual([{ language: "pine", path: "./snippets/pine.json" }]);
    expect(manifest.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title])).toEqual([
      ["resin.runOnData", "Run script on a data file"],
      ["resin.openInApp", "Open in resin chart app"],
    ]);
    expect(manifest.dependencies["vscode-languageclient"]).toBeDefined();
    expect(manifest.scripts.package).toContain("vsce package");
  });

  it("ships a grammar that scopes comments, annotations and keywords, and valid snippets", () => {
    const grammar = json("syntaxes/pine.tmLanguage.json");
    expect(grammar.scopeName).toBe("source.pine");
    for (const name of ["comment", "annotation", "string", "keyword", "function-call"])
      expect(grammar.repository[name]).toBeDefined();
    // every pattern is a valid regular expression for the JS engine (TextMate's Oniguruma is a superset here)
    const patterns: string[] = [];
    JSON.stringify(grammar, (k, v) => {
      if ((k === "match" || k === "begin" || k === "end") && typeof v === "string") patterns.push(v);
      return v;
    });
    for (const p of patterns) expect(() => new RegExp(p)).not.toThrow();
    const config = json("language-configuration.json");
    expect(config.comments.lineComment).toBe("//");
    const snippets = json("snippets/pine.json");
    expect(snippets.Indicator.body[0]).toBe("//@version=6");
  });

  it("starts the server the client would (resin lsp --stdio) and it initializes", async () => {
    ensureDist();
    const require = createRequire(import.meta.url);
    const { serverOptions } = require(join(EXT, "src", "server.js"));
    const { run } = serverOptions(join(ROOT, "bin", "resin.js"));
    expect(run.args.slice(-2)).toEqual(["lsp", "--stdio"]);
    const proc = spawn(run.command, run.args, { cwd: ROOT, stdio: "pipe" });
    const rpc = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    rpc.listen();
    const exited = new Promise<number | null>((resolve) => proc.on("exit", resolve));
    const init = await rpc.sendRequest<{ serverInfo: { name: string } }>("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    expect(init.serverInfo.name).toBe("resin-lsp");
    await rpc.sendRequest("shutdown");
    await rpc.sendNotification("exit");
    const timer = setTimeout(() => proc.kill(), 5000);
    expect(await exited).toBe(0);
    clearTimeout(timer);
    rpc.dispose();
  }, 120_000);
});
