// One kernel instance per worker, reused run after run. A fresh WebAssembly instance per run (what
// Runtime.run does) costs the worker far more than instantiation itself: every run calls new export
// functions, so the call sites into the kernels never settle, and the fresh memory grows page by page
// again. Measured in Node on MA cross / bench10 over 2,000 bars: 1.3-2x faster runs, results
// identical (tests/web/kernel-reuse.test.ts). Resetting is moving the bump allocator back to where
// it stood after instantiation: kernel allocations zero their bytes (assembly/mem.ts alloc), so the
// heap then reads as a fresh one. A run that failed may have stopped inside a kernel with its
// globals mid-way: the instance is then dropped and the next run gets a new one.

import { createKernelsSync, type Kernels } from "../kernels/index.js";

export class ReusedKernels {
  private kernels: Kernels | null = null;
  private base = 0;

  constructor(private readonly module: WebAssembly.Module) {}

  /** The instance for the next run, its heap back to the state right after instantiation. */
  forRun(): Kernels {
    if (this.kernels === null) {
      this.kernels = createKernelsSync(this.module);
      this.base = this.kernels.x.heap_top();
    } else this.kernels.x.heap_set(this.base);
    return this.kernels;
  }

  /** After a run that ended in an error or a timeout: the next run starts from a new instance. */
  discard(): void {
    this.kernels = null;
  }
}
