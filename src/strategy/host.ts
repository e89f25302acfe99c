// What the broker needs of its host: the current bar, the symbol, the run's per-run services and the
// error and log sinks. Declared here, below the builtins, so the broker depends on no layer above it;
// the builtins' ExecContext (src/catalog/contract.ts) satisfies it structurally, which is how the
// Runtime and strategy.* hand their context to the broker.

import type { SymInfo } from "../core/result.js";

export interface BrokerHost {
  /** Pine version of the script (5 or 6): strategy defaults and trade-limit rules differ. */
  version: number;
  barIndex: number;
  /** Number of bars in the run (sizes the equity tracker). */
  barCount: number;
  time: number;
  timeClose: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /**
   * The input bar (an index of the run's columns) whose time, open, high, low and close the host's
   * are as they are: the bar loops set it after writing a bar; a writer of a partial or tick bar
   * sets -1. Trusted only while it equals barIndex (a bar index written since makes it stale).
   * Absent or not barIndex: the reader compares the prices itself (the order-event log's bar test).
   */
  inputBar?: number;
  syminfo: Required<Pick<SymInfo, "mintick" | "pointvalue" | "timezone" | "currency" | "type">> & SymInfo;
  /** Per-run services the Runtime attaches (magnifierBars, fillRecalc, dataFeed, scriptId, runId, ...). */
  ext: Record<string, unknown>;
  log(level: "info" | "warning" | "error", message: string): void;
  runtimeError(message: string): never;
}
