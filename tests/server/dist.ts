// The CLI tests run the built package (bin/resin.js -> dist/), as users do. This rebuilds dist/
// with tsc when it is missing or older than the sources these tests cover.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function ensureDist(): void {
  const built = join(ROOT, "dist", "bundle", "run-worker.js");
  const srcTime = Math.max(
    newest(join(ROOT, "src", "server")),
    newest(join(ROOT, "src", "optimize")),
    statSync(join(ROOT, "src", "cli", "serve.ts")).mtimeMs,
    // (tests/cli/bench-optimize.test.ts imports the built bench module and its host entry)
    statSync(join(ROOT, "src", "cli", "bench-optimize.ts")).mtimeMs,
    statSync(join(ROOT, "src", "cli", "bench-optimize-host.ts")).mtimeMs,
  );
  const runtime = join(ROOT, "dist", "runtime", "index.js");
  if (existsSync(built) && existsSync(runtime) && statSync(built).mtimeMs >= srcTime) return;
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      { cwd: ROOT, stdio: "pipe" },
    );
  } catch {
    // Type errors elsewhere in the tree do not stop tsc from emitting; the tests below check the output.
  }
  // the worker threads' one-file entry, as the build makes it (pool.ts takes it when it is not older)
  execFileSync(process.execPath, [join(ROOT, "scripts", "bundle-worker.mjs")], { cwd: ROOT, stdio: "pipe" });
}

export { ROOT };
