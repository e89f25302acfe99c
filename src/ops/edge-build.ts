// Bundles the edge worker (src/edge/worker.ts) for workerd with esbuild: one ES module plus
// kernels.wasm next to it, imported as a CompiledWasm module (a WebAssembly.Module binding), and
// the registered scripts' ahead-of-time compiled bar loops bundled in (edge-aot.ts). The
// script-writing worker (src/edge/generate-worker.ts) and the trade service are bundled here too.

import { copyFile, mkdir, readFile, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type AotReport, type AotScript, emitAotModules } from "./edge-aot.js";

export interface EdgeBundle {
  dir: string;
  script: string;
  wasm: string;
  bytes: number;
  /** The scripts compiled ahead of time into this bundle (edge worker only). */
  aot?: AotReport;
}

export interface EdgeBuildOptions {
  /** Registered scripts whose compiled bar loops the worker runs (workerd has no `new Function`). */
  scripts?: readonly AotScript[];
  /** The deploy's label, written into the compiled modules (default: the build time). */
  deploy?: string;
}

/** The package root (this file sits at <root>/{src,dist}/ops/). */
export function packageRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}

/** src/edge/<name>.ts from source, else the built dist/edge/<name>.js. */
function edgeEntry(name: string): string {
  const root = packageRoot();
  const fromSource = join(root, "src", "edge", `${name}.ts`);
  return existsSync(fromSource) ? fromSource : join(root, "dist", "edge", `${name}.js`);
}

/** The kernels built by `npm run build:wasm`, or a clear error saying so. */
function kernelsWasm(): string {
  const wasm = join(packageRoot(), "build", "kernels.wasm");
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run \`npm run build:wasm\` first`);
  return wasm;
}

/**
 * One workerd ES module from `entry`; `resin:kernels.wasm` stays an import of the kernels.wasm copied
 * beside it, `resin:compiled-scripts` (the evaluate worker's) resolves to `aotIndex`.
 */
async function bundleForWorkerd(entry: string, script: string, aotIndex?: string): Promise<void> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    external: ["node:*"],
    logLevel: "silent",
    plugins: [
      {
        name: "resin-kernels",
        setup(b) {
          b.onResolve({ filter: /^resin:kernels\.wasm$/ }, () => ({ path: "./kernels.wasm", external: true }));
          if (aotIndex) b.onResolve({ filter: /^resin:compiled-scripts$/ }, () => ({ path: aotIndex }));
        },
      },
    ],
  });
}

export async function buildEdgeWorker(
  outDir = join(packageRoot(), "build", "edge"),
  opts: EdgeBuildOptions = {},
): Promise<EdgeBundle> {
  const wasmSource = kernelsWasm();
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const script = join(dir, "worker.js");
  const aot = await emitAotModules(dir, opts.scripts ?? [], opts.deploy ?? new Date().toISOString());
  await bundleForWorkerd(edgeEntry("worker"), script, aot.index);
  const wasm = join(dir, "kernels.wasm");
  await copyFile(wasmSource, wasm);
  const bytes = (await stat(script)).size + (await stat(wasm)).size;
  return { dir, script, wasm, bytes, aot };
}

/**
 * Bundles the script-writing worker (src/edge/generate-worker.ts, issue 23) the same way: it verifies
 * what it writes by running it, so it carries kernels.wasm too; it compiles no registered scripts.
 */
export async function buildGenerateWorker(outDir = join(packageRoot(), "build", "generate")): Promise<EdgeBundle> {
  const wasmSource = kernelsWasm();
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const script = join(dir, "worker.js");
  await bundleForWorkerd(edgeEntry("generate-worker"), script);
  const wasm = join(dir, "kernels.wasm");
  await copyFile(wasmSource, wasm);
  return { dir, script, wasm, bytes: (await stat(script)).size + (await stat(wasm)).size };
}

/**
 * Bundles the trade service (src/mesh/worker.ts) the same way: one ES module (it needs no kernels),
 * whose exports include the MeshControl Durable Object class.
 */
export async function buildMeshWorker(outDir = join(packageRoot(), "build", "mesh")): Promise<EdgeBundle> {
  const root = packageRoot();
  const fromSource = join(root, "src", "mesh", "worker.ts");
  const entry = existsSync(fromSource) ? fromSource : join(root, "dist", "mesh", "worker.js");
  const { build } = await import("esbuild");
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const script = join(dir, "worker.js");
  await build({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    external: ["node:*"],
    logLevel: "silent",
  });
  return { dir, script, wasm: "", bytes: (await stat(script)).size };
}

/** Miniflare/workerd options for the bundle (modules with the wasm rule). */
export async function edgeModules(
  bundle: EdgeBundle,
): Promise<{ type: "ESModule" | "CompiledWasm"; path: string; contents: Uint8Array | string }[]> {
  return [
    { type: "ESModule", path: bundle.script, contents: await readFile(bundle.script, "utf8") },
    { type: "CompiledWasm", path: bundle.wasm, contents: await readFile(bundle.wasm) },
  ];
}
