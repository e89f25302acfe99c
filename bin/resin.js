#!/usr/bin/env node
// The evaluator CLI (run, optimize, serve, check, bench). The code lives in src/cli, built to dist/.
import { main } from "../dist/cli/index.js";

main(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
