// A run's error in one line, as the app's banner and the embeddable chart's error event say it.

import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { fmtTime } from "./dom.js";

/** A run error as the banner says it: kind, message, and where (line, bar and its time) when known. */
export function errorText(result: PackedRunResult): string {
  const where: string[] = [];
  const line = result.diagnostics?.find((d) => d.severity === "error")?.line;
  if (line) where.push(`line ${line}`);
  if (typeof result.error_bar === "number" && result.error_kind === "runtime") {
    const t = result.error_bar_time;
    where.push(`bar ${result.error_bar}${typeof t === "number" ? ` (${fmtTime(t)})` : ""}`);
  }
  return `${result.error_kind ?? "error"} error${where.length ? ` at ${where.join(", ")}` : ""}: ${result.error}`;
}
