#!/usr/bin/env node
// The operations CLI (provision, deploy and monitor edge workers). The code lives in src/ops, built to dist/.
import { main, terminalPrompt } from "../dist/ops/cli.js";

main(process.argv.slice(2), { prompt: terminalPrompt }).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
