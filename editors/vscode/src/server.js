// How the extension starts resin: `resin lsp --stdio` for the language server, `resin run` and
// `resin serve --app` for the commands. `resin.path` is either a command on PATH (`resin`) or the path
// of a .js entry (bin/resin.js in a checkout), which is run with the Node that runs the editor's
// extension host. No `vscode` import here, so tests can start the server the packaged client would.

const path = require("node:path");

/** The executable and arguments for resin with `args` (`["lsp", "--stdio"]`). */
function resinCommand(resinPath, args) {
  const p = resinPath || "resin";
  if (p.endsWith(".js") || p.endsWith(".mjs")) return { command: process.execPath, args: [path.resolve(p), ...args] };
  return { command: p, args };
}

/** The language server's launch options, in vscode-languageclient's ServerOptions shape. */
function serverOptions(resinPath) {
  const run = resinCommand(resinPath, ["lsp", "--stdio"]);
  return { run, debug: run };
}

module.exports = { resinCommand, serverOptions };
