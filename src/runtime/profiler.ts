// Per-line profiler: wraps each top-level statement to time it (only when `profiler` is asked for,
// so ordinary runs pay nothing).
import type { Fn } from "../interpret/compiler.js";

const now: () => number = typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

export class LineProfiler {
  private readonly ms = new Map<number, number>();
  private readonly execs = new Map<number, number>();

  wrap = (fn: Fn, line: number): Fn => {
    this.ms.set(line, this.ms.get(line) ?? 0);
    this.execs.set(line, this.execs.get(line) ?? 0);
    const ms = this.ms;
    const execs = this.execs;
    return () => {
      const t = now();
      try {
        return fn();
      } finally {
        ms.set(line, ms.get(line)! + (now() - t));
        execs.set(line, execs.get(line)! + 1);
      }
    };
  };

  lines(): { line: number; ms: number; execs: number; pct: number }[] {
    let total = 0;
    for (const v of this.ms.values()) total += v;
    return [...this.ms.keys()]
      .sort((a, b) => a - b)
      .map((line) => {
        const ms = this.ms.get(line)!;
        return { line, ms, execs: this.execs.get(line)!, pct: total > 0 ? (ms / total) * 100 : 0 };
      });
  }
}
