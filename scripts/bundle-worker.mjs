#!/usr/bin/env node
// Bundles the Node pool's worker-thread entry (dist/server/node/run-worker.js, built by tsc) into one
// file, dist/bundle/run-worker.js, with the esbuild that vite ships. Why: a cold thread loads the
// engine before its first trial, and as ~180 separate ES modules that loading costs ~180 ms of CPU, as
// one file ~55 ms (module loading alone; a whole thread start-up about half what it was: docs/benchmarks.md
// "Issue 18, session 11"); `resin optimize`, `resin serve` and /optimize
// start such threads. The bundle sits two folders below the package root, as dist/kernels/index.js
// does, so the kernels' default location (../../build/kernels.wasm from the module's URL) is the same
// file. pool.ts workerEntry takes the bundle only when it is not older than run-worker.js (a tsc-only
// build leaves the plain entry in charge). Usage: node scripts/bundle-worker.mjs (after tsc).
import { build } from "esbuild";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "dist/server/node/run-worker.js")],
  outfile: join(root, "dist/bundle/run-worker.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  // the entry's own dependencies are bundled too; none is a native module
});
