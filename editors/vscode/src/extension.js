// The VS Code client: starts `resin lsp` for .pine files (vscode-languageclient over stdio) and adds two
// commands: "Run script on a data file" (resin run, output in a channel) and "Open in resin chart app"
// (the app's URL with the script in its fragment, opened in the browser).

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { execFile } = require("node:child_process");
const { resinCommand, serverOptions } = require("./server.js");

let client;

function resinPath() {
  return vscode.workspace.getConfiguration("resin").get("path", "resin");
}

async function activate(context) {
  client = new LanguageClient("resin", "resin Pine language server", serverOptions(resinPath()), {
    documentSelector: [{ language: "pine" }],
  });
  await client.start();
  const output = vscode.window.createOutputChannel("resin");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("resin.runOnData", async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== "pine") return;
      await editor.document.save();
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        openLabel: "Run on this data",
        filters: { "Bars (CSV, JSON)": ["csv", "json", "gz"] },
      });
      if (!picked?.length) return;
      const { command, args } = resinCommand(resinPath(), [
        "run",
        editor.document.uri.fsPath,
        "--data",
        picked[0].fsPath,
      ]);
      output.show(true);
      output.appendLine(`$ ${command} ${args.join(" ")}`);
      execFile(command, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (stdout) output.append(stdout);
        if (stderr) output.append(stderr);
        if (err) output.appendLine(`resin run failed: ${err.message}`);
      });
    }),
    vscode.commands.registerCommand("resin.openInApp", async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== "pine") return;
      const base = vscode.workspace.getConfiguration("resin").get("appUrl", "http://127.0.0.1:8080");
      const script = Buffer.from(editor.document.getText(), "utf8").toString("base64url");
      await vscode.env.openExternal(vscode.Uri.parse(`${base.replace(/\/$/, "")}/#script=${script}`));
    }),
  );
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
