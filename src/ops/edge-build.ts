// Bundles the edge worker (src/edge/worker.ts) for workerd with esbuild: one ES module plus
// kernels.wasm next to it, imported as a CompiledWasm module (a WebAssembly.Module binding), and
// the registered scripts' ahead-of-time compiled bar loops bundled in (edge-aot.ts).

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

export async function buildEdgeWorker(
  outDir = join(packageRoot(), "build", "edge"),
  opts: EdgeBuildOptions = {},
): Promise<EdgeBundle> {
  const root = packageRoot();
  const fromSource = join(root, "src", "edge", "worker.ts");
  const entry = existsSync(fromSource) ? fromSource : join(root, "dist", "edge", "worker.js");
  const wasmSource = join(root, "build", "kernels.wasm");
  if (!existsSync(wasmSource)) throw new Error(`${wasmSource} is missing: run \`npm run build:wasm\` first`);
  const { build } = await import("esbuild");
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const script = join(dir, "worker.js");
  const aot = await emitAotModules(dir, opts.scripts ?? [], opts.deploy ?? new Date().toISOString());
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
          b.onResolve({ filter: /^resin:compiled-scripts$/ }, () => ({ path: aot.index }));
        },
      },
    ],
  });
  const wasm = join(dir, "kernels.wasm");
  await copyFile(wasmSource, wasm);
  const bytes = (await stat(script)).size + (await stat(wasm)).size;
  return { dir, script, wasm, bytes, aot };
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
