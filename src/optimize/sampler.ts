// What a sampler is (the contract samplers.ts and tpe.ts implement and study.ts drives): the names, a
// scored trial as samplers see it, and the propose interface. Its own module so tpe.ts and samplers.ts
// both stand on it instead of on each other.
import type { Params } from "./space.js";

export type SamplerName = "random" | "grid" | "tpe";
export type SamplerChoice = SamplerName | "auto";
export const SAMPLERS: readonly SamplerChoice[] = ["auto", "random", "tpe", "grid"];

/** A scored trial as the samplers see it: its params and its in-sample score (-Infinity when none). */
export interface Observation {
  params: Params;
  score: number;
}

export interface Sampler {
  readonly name: SamplerName;
  propose(history: readonly Observation[]): Params;
  /**
   * True when the proposal for trial `index` does not read the outcomes of trials 0..index-1 (it may
   * then be made, with a shorter history, before they finish: the study runs such trials side by side).
   */
  ignoresHistory?(index: number): boolean;
}
