// Loads build/kernels.wasm in a worker: Vite emits the file as an asset and gives us its URL; the
// module is compiled once per worker and handed to the kernels loader, which instantiates it per run.

import wasmUrl from "../../build/kernels.wasm?url";
import { setKernelModule } from "../kernels/index.js";
import { ReusedKernels } from "./kernel-reuse.js";

let ready: Promise<void> | null = null;
/** This worker's kernel instance, reused run after run (see kernel-reuse.ts). */
export let workerKernels: ReusedKernels | null = null;

export function initKernels(): Promise<void> {
  ready ??= (async () => {
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`kernels.wasm: HTTP ${response.status}`);
    // compile from bytes: compileStreaming needs the application/wasm MIME type, which not every host sets
    const module = await WebAssembly.compile(await response.arrayBuffer());
    setKernelModule(module);
    workerKernels = new ReusedKernels(module);
  })();
  return ready;
}
