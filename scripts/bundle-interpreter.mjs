#!/usr/bin/env node
// Bundles the interpreter's closure-making modules (compiler.js and the modules whose functions its
// closures call per bar: the fused operators, the statement drivers, the loop kernels, the kept-closure
// memo and their helpers) into one CommonJS text, dist/interpret/copy.cjs, and the same beside the
// worker bundle (dist/bundle/copy.cjs). src/interpret/copies.ts evaluates that text once per copy,
// so that a copy's closures are V8 functions of their own, with their own type feedback: why is in
// copies.ts. Everything else the bundled modules import (values, errors, run state, builtins) stays an
// import, which the copy's `require` answers with the loaded module (copies.ts COPY_DEPS), so a copy
// shares every class and table with the rest of the engine. The build fails when one of those imports
// is not in COPY_DEPS. Usage: node scripts/bundle-interpreter.mjs (after tsc and bundle-worker.mjs).
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The modules of src/interpret/ each copy has its own instance of (by file name). */
export const COPIED_MODULES = [
  "compiler",
  "fused.generated",
  "drivers.generated",
  "loop-kernels",
  "inline-ta",
  "memo",
  "column-at",
  "writes",
  "invariant",
];

/**
 * The copy's text from `entry` (the interpreter's compiler module, .js in dist or .ts in src) and the
 * imports it leaves to its `require` (as written in the bundled modules, all of which sit in one folder).
 */
export async function bundleInterpreterCopy(entry) {
  const dir = dirname(entry);
  const copied = new Set(COPIED_MODULES);
  const externals = new Set();
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "cjs",
    target: "es2022",
    // (V8 keeps each copy's text while the process lives: spaces out, names kept for profiles)
    minifyWhitespace: true,
    logLevel: "warning",
    plugins: [
      {
        name: "interpreter-copy",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === "entry-point") return null;
            const path = resolve(args.resolveDir, args.path);
            if (
              args.path.startsWith(".") &&
              dirname(path) === dir &&
              copied.has(basename(path).replace(/\.[jt]s$/, ""))
            )
              return null;
            externals.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return { text: out.outputFiles[0].text, externals: [...externals].sort() };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const { text, externals } = await bundleInterpreterCopy(join(root, "dist/interpret/compiler.js"));
  const { COPY_DEPS } = await import(pathToFileURL(join(root, "dist/interpret/copies.js")).href);
  const missing = externals.filter((x) => !(x in COPY_DEPS));
  if (missing.length > 0) {
    console.error(`bundle-interpreter: src/interpret/copies.ts COPY_DEPS lacks ${missing.join(", ")}`);
    process.exit(1);
  }
  writeFileSync(join(root, "dist/interpret/copy.cjs"), text);
  mkdirSync(join(root, "dist/bundle"), { recursive: true });
  writeFileSync(join(root, "dist/bundle/copy.cjs"), text);
}
