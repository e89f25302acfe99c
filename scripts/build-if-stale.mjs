#!/usr/bin/env node
// Builds only what is out of date, for `npm start`: the WASM kernels, the library (dist/) and the
// chart app (dist-web/), each when a source it is built from is newer than its output (or the output
// is missing). `npm install` has usually just built the first two, and a full `npm run build` takes
// tens of seconds, so a start with nothing changed now only pays for the mtime scan.
// (Plain mtimes rather than tsc -b: the WASM and Vite builds have no incremental mode of their own, and
// one rule for all three keeps this small.) Usage: node scripts/build-if-stale.mjs [--dry-run]
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dryRun = process.argv.includes("--dry-run");

/** Newest mtime (ms) under the given files and folders; 0 when none exists. */
function newest(paths) {
  let t = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (!s.isDirectory()) t = Math.max(t, s.mtimeMs);
    else for (const name of readdirSync(p)) if (name !== "node_modules") visit(join(p, name));
  };
  for (const p of paths) visit(join(root, p));
  return t;
}

/** mtime of an output file, or -1 when it is missing (always stale). */
function built(path) {
  const p = join(root, path);
  return existsSync(p) ? statSync(p).mtimeMs : -1;
}

const STEPS = [
  {
    name: "kernels (build/kernels.wasm)",
    script: "build:wasm",
    output: "build/kernels.wasm",
    inputs: ["assembly", "asconfig.json"],
  },
  {
    name: "library (dist/)",
    script: "build:lib:ts",
    output: "dist/index.js",
    inputs: ["src", "tsconfig.build.json", "tsconfig.json"],
  },
  {
    name: "chart app (dist-web/)",
    script: "build:web",
    output: "dist-web/index.html",
    inputs: ["web", "src", "examples", "vite.config.ts", "build/kernels.wasm"],
  },
];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const t0 = performance.now();
for (const step of STEPS) {
  const out = built(step.output);
  const src = newest(step.inputs);
  if (out >= src) {
    console.log(`up to date: ${step.name}`);
    continue;
  }
  console.log(`building: ${step.name}${out < 0 ? " (missing)" : ""}`);
  if (!dryRun) execFileSync(npm, ["run", "--silent", step.script], { cwd: root, stdio: "inherit" });
}
console.log(`build check done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
