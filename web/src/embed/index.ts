// `resin/web`: resin for web pages. createEngine() runs Pine scripts (and optimize studies) in a pool
// of Web Workers through Comlink, with bars and plot columns transferred as Float64Arrays;
// <resin-chart> draws a script's chart from `script`, `data` and `theme` attributes. Importing this
// module registers <resin-chart>. Built by vite.embed.config.ts into dist-embed/ (docs/embedding.md).

import { defineResinChart } from "./resin-chart.js";

export {
  createEngine,
  fetchBars,
  parseBars,
  toPackedBars,
  type BarsInput,
  type EngineOptions,
  type OptimizeOptions,
  type ResinEngine,
  type RunOptions,
} from "./client.js";
export { ResinChartElement, defineResinChart } from "./resin-chart.js";
export type { PackedBars, PackedRunResult, SeriesColumn } from "../../../src/worker/protocol.js";
export type { OptimizeProgress, OptimizeResult, ParamSpec, TrialRecord } from "../engines/types.js";

defineResinChart();
