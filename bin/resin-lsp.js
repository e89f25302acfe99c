#!/usr/bin/env node
// The Pine language server over stdio (the same as `resin lsp`); the code lives in src/lsp, built to dist/.
import module from "node:module";

module.enableCompileCache?.();
const { runServer } = await import("../dist/lsp/node/server.js");
await runServer();
process.exit(0);
