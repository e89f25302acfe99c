// The option objects of `resin`'s commands as commander hands them to each command's `execute`: declared
// here, below both index.ts (which declares the flags) and the command modules (which read them), so a
// command module never imports the CLI's entry.
import type { TimeUnit } from "../core/bars.js";

/** Options of `resin run`, as commander parses them. */
export interface RunOptions {
  bars: number;
  data?: string;
  dataFeed?: string;
  syminfo?: string;
  timeframe?: string;
  mode?: string;
  inputs?: Record<string, unknown>;
  symbol: string;
  json?: boolean;
  realtimeLastBar?: boolean;
  realtimeTicks?: number;
  realtimeBars?: number;
  realtimeFromBar?: number;
  backtestStart?: number | { bar: number };
  timeUnit: TimeUnit;
}

export interface OptimizeOptions {
  trials?: number;
  sampler?: string;
  objective?: string;
  space?: unknown;
  validation: string;
  bars: number;
  trainBars?: number;
  testBars?: number;
  stepBars?: number;
  holdoutFrac?: number;
  minTrades?: number;
  seed?: number;
  /** Data files: one, or several for a study over several data sets. */
  data?: string[];
  aggregate?: string;
  timeUnit: TimeUnit;
  json?: boolean;
  /** TPE's generation size (service.md 3); a --remote study's default is the worker's. */
  parallelism?: number;
  /** An edge worker's URL: the study runs there, fanned out (service.md 4). */
  remote?: string;
  concurrency?: number;
  batchSize?: number;
  /** Threads for the trials at most, the CLI's own included (optimize-threads.ts decides when they join; default: one a core). */
  workers?: number;
}

export interface CheckOptions {
  json?: boolean;
  syntaxOnly?: boolean;
}

export interface ServeOptions {
  port: number;
  host: string;
  app?: boolean;
  cors?: string;
}
