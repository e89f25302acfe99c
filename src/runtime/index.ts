// The library Runtime (service.md 1): `new Runtime(symbol, {inputs, broker, timeframe, syminfo})`,
// `await rt.run(source, ohlcv, options)`. Works in Node, browsers (Web Worker) and workerd.
import type { OhlcvInput, RunOptions, RunResult, RuntimeOptions } from "../core/result.js";
import { createKernels } from "../kernels/index.js";
import { compileProgram } from "../compile/index.js";
import { interpreterCopiesSettled, loadInterpreterCopies } from "../interpret/copies.js";
import { setCompileBackend } from "./backend.js";
import { emptyResult, evaluate } from "./evaluate.js";

// the compile backend (src/compile) serves `compile` and `auto` runs
setCompileBackend(compileProgram);

export { evaluate, resolveMode, emptyResult } from "./evaluate.js";
export { setCompileBackend, type CompileBackend, type CompiledRun } from "./backend.js";

/** A fresh kernel instance for a run, or null when kernels.wasm cannot be loaded in this host. */
async function kernelsOrNull(): Promise<unknown> {
  try {
    return await createKernels();
  } catch {
    return null;
  }
}

export class Runtime {
  constructor(
    readonly symbol: string = "CHART",
    readonly options: RuntimeOptions = {},
  ) {}

  async run(source: string, ohlcv: OhlcvInput, options: RunOptions = {}): Promise<RunResult> {
    // (the interpreter's copies are read once per process, src/interpret/copies.ts)
    if (!interpreterCopiesSettled()) await loadInterpreterCopies();
    const kernels = await kernelsOrNull();
    return this.runSync(source, ohlcv, options, kernels);
  }

  /** The same evaluation without the Promise (bench, worker threads); `kernels` from createKernels(). */
  runSync(source: string, ohlcv: OhlcvInput, options: RunOptions = {}, kernels: unknown = null): RunResult {
    try {
      return evaluate({ source, ohlcv, options, symbol: this.symbol, runtime: this.options, kernels });
    } catch (err) {
      // an internal fault must still come back as a result, never as a throw
      const r = emptyResult(typeof source === "string" ? source : "");
      r.error = `internal error: ${err instanceof Error ? err.message : String(err)}`;
      r.error_kind = "runtime";
      return r;
    }
  }
}
