// The library Runtime (service.md 1): `new Runtime(symbol, {inputs, broker, timeframe, syminfo})`,
// `await rt.run(source, ohlcv, options)`. Works in Node, browsers (Web Worker) and workerd.
import type { OhlcvInput, RunOptions, RunResult, RuntimeOptions } from "../core/result.js";
import { emptyResult, evaluate } from "./evaluate.js";

export { evaluate, resolveMode } from "./evaluate.js";

export class Runtime {
  constructor(
    readonly symbol: string = "CHART",
    readonly options: RuntimeOptions = {},
  ) {}

  async run(source: string, ohlcv: OhlcvInput, options: RunOptions = {}): Promise<RunResult> {
    return this.runSync(source, ohlcv, options);
  }

  /** The same evaluation without the Promise (bench, worker threads). */
  runSync(source: string, ohlcv: OhlcvInput, options: RunOptions = {}): RunResult {
    try {
      return evaluate({ source, ohlcv, options, symbol: this.symbol, runtime: this.options });
    } catch (err) {
      // an internal fault must still come back as a result, never as a throw
      const r = emptyResult(typeof source === "string" ? source : "");
      r.error = `internal error: ${err instanceof Error ? err.message : String(err)}`;
      r.error_kind = "runtime";
      return r;
    }
  }
}
