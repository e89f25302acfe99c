#!/usr/bin/env node
// The operations CLI (provision, deploy and monitor edge workers). The code lives in src/ops, built to dist/.
// The exit code is set, never forced with process.exit(): piped stdout drains fully first.
import { main } from "../dist/ops/cli.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code ?? 0;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
