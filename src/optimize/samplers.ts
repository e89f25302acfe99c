// Samplers propose the next trial's parameters from the trials scored so far.
// random: independent uniform draws; grid: the Cartesian product in order, then random;
// tpe: see tpe.ts. Every sampler draws only from the Rng it is given, so a seed reproduces a study.

import type { Rng } from "./prng.js";
import { gridAxis, randomParams, type ParamSpec, type ParamValue, type Params } from "./space.js";
import type { Sampler, SamplerChoice, SamplerName } from "./sampler.js";
import { createTpe } from "./tpe.js";

export { SAMPLERS, type Observation, type Sampler, type SamplerChoice, type SamplerName } from "./sampler.js";

/** `auto` is random below 20 trials, else TPE (service.md 3). */
export function resolveSampler(choice: SamplerChoice, nTrials: number): SamplerName {
  if (choice === "auto") return nTrials < 20 ? "random" : "tpe";
  return choice;
}

export function createRandomSampler(space: ParamSpec[], rng: Rng): Sampler {
  return { name: "random", propose: () => randomParams(space, rng), ignoresHistory: () => true };
}

/** Walks the grid with the last axis moving fastest; random draws once every cell was proposed. */
export function createGridSampler(space: ParamSpec[], rng: Rng): Sampler {
  const axes: ParamValue[][] = space.map(gridAxis);
  const total = axes.reduce((n, a) => n * a.length, 1);
  let cursor = 0;
  return {
    name: "grid",
    ignoresHistory: () => true,
    propose: () => {
      if (cursor >= total) return randomParams(space, rng);
      let rest = cursor++;
      const out: Params = {};
      for (let i = space.length - 1; i >= 0; i--) {
        const axis = axes[i] as ParamValue[];
        out[(space[i] as ParamSpec).name] = axis[rest % axis.length] as ParamValue;
        rest = Math.floor(rest / axis.length);
      }
      // Keep the declared parameter order in the object.
      const ordered: Params = {};
      for (const p of space) ordered[p.name] = out[p.name] as ParamValue;
      return ordered;
    },
  };
}

export function createSampler(name: SamplerName, space: ParamSpec[], rng: Rng, nTrials: number): Sampler {
  switch (name) {
    case "grid":
      return createGridSampler(space, rng);
    case "tpe":
      return createTpe(space, rng, nTrials);
    default:
      return createRandomSampler(space, rng);
  }
}
