#!/usr/bin/env node
// The evaluator CLI (run, optimize, serve, check, bench). The code lives in src/cli, built to dist/.
// The exit code is set, never forced with process.exit(): piped stdout (`resin run --json | jq`)
// drains fully before the process ends on its own.
import module from "node:module";

// Node 22.1+ keeps V8's compiled code of the ~200 engine modules between runs (a faster cold start;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Older Node has no such API: nothing happens.
module.enableCompileCache?.();
const { main } = await import("../dist/cli/index.js");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code ?? 0;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
