// Tree-structured Parzen Estimator, written from the published algorithm (Bergstra et al., 2011):
// split the scored trials into the best gamma fraction ("good") and the rest ("bad"), fit one
// density per group and axis, draw candidates from the good density and keep the one maximising
// l(x) / g(x). Axes are treated independently (the product of per-axis ratios).
// Numeric axes work on [0, 1] with truncated Gaussian kernels plus a uniform prior component;
// categorical and bool axes use smoothed frequency counts.

import type { Rng } from "./prng.js";
import type { Observation, Sampler } from "./sampler.js";
import { randomParams, snap, type ParamSpec, type ParamValue, type Params } from "./space.js";

export const TPE_GAMMA = 0.25;
export const TPE_CANDIDATES = 24;

/** Random trials before the estimators take over: max(3, min(10, n_trials / 3)). */
export function tpeStartup(nTrials: number): number {
  return Math.max(3, Math.min(10, Math.floor(nTrials / 3)));
}

interface Parzen {
  mus: number[];
  sigma: number;
  /** Weight of the uniform prior component. */
  prior: number;
}

const SQRT2 = Math.SQRT2;

// erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): enough for kernel normalisation.
function erf(x: number): number {
  const s = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

function phi(z: number): number {
  return 0.5 * (1 + erf(z / SQRT2));
}

function fitParzen(points: number[], minSigma: number, prior: number): Parzen {
  const n = points.length;
  let sigma = 0.25;
  if (n >= 2) {
    const mean = points.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(points.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    sigma = 1.06 * sd * n ** -0.2;
  }
  return { mus: points, sigma: Math.min(0.5, Math.max(minSigma, sigma)), prior };
}

function parzenPdf(m: Parzen, u: number): number {
  let sum = 0;
  const s = m.sigma;
  for (const mu of m.mus) {
    const z = (u - mu) / s;
    const mass = phi((1 - mu) / s) - phi(-mu / s);
    sum += Math.exp(-0.5 * z * z) / (s * Math.sqrt(2 * Math.PI) * Math.max(mass, 1e-12));
  }
  const kernels = m.mus.length;
  // Mixture: prior (uniform density 1 on [0, 1]) with weight `prior`, kernels share the rest.
  return m.prior + (kernels > 0 ? ((1 - m.prior) * sum) / kernels : 0);
}

function parzenSample(m: Parzen, rng: Rng): number {
  if (m.mus.length === 0 || rng.next() < m.prior) return rng.next();
  const mu = m.mus[rng.int(0, m.mus.length - 1)] as number;
  for (let tries = 0; tries < 16; tries++) {
    const u = mu + m.sigma * rng.normal();
    if (u >= 0 && u <= 1) return u;
  }
  return Math.min(1, Math.max(0, mu));
}

function toUnit(p: ParamSpec, v: number): number {
  return (v - (p.min as number)) / ((p.max as number) - (p.min as number));
}

function fromUnit(p: ParamSpec, u: number): number {
  return snap(p, (p.min as number) + u * ((p.max as number) - (p.min as number)));
}

function choicesOf(p: ParamSpec): ParamValue[] {
  return p.kind === "bool" ? [false, true] : (p.choices as ParamValue[]);
}

function categoryWeights(p: ParamSpec, group: readonly Observation[]): number[] {
  const choices = choicesOf(p);
  const w = choices.map(() => 1); // add-one smoothing: unseen choices stay possible
  for (const o of group) {
    const k = choices.indexOf(o.params[p.name] as ParamValue);
    if (k >= 0) w[k] = (w[k] as number) + 1;
  }
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
}

function pickWeighted(weights: number[], rng: Rng): number {
  let r = rng.next();
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i] as number;
    if (r < 0) return i;
  }
  return weights.length - 1;
}

export function createTpe(space: ParamSpec[], rng: Rng, nTrials: number): Sampler {
  const startup = tpeStartup(nTrials);
  return {
    name: "tpe",
    // the start-up draws are random; with a shorter history than trial k would see (still under
    // `startup`), propose takes the same branch and draws the same numbers
    ignoresHistory: (index) => index < startup,
    propose(history) {
      if (history.length < startup) return randomParams(space, rng);
      // Best first; a stable sort keeps ties in trial order, so a seed reproduces the split.
      const ranked = history
        .map((o, i) => ({ o, i }))
        .sort((a, b) => b.o.score - a.o.score || a.i - b.i)
        .map((x) => x.o);
      const nGood = Math.max(1, Math.ceil(TPE_GAMMA * ranked.length));
      const good = ranked.slice(0, nGood);
      const bad = ranked.slice(nGood);

      // One prior weight for both densities: a region with no observations then has ratio 1
      // instead of favouring wherever the (larger) bad group happens to be thin.
      const prior = 1 / (ranked.length + 1);
      const candidates: Params[] = Array.from({ length: TPE_CANDIDATES }, () => ({}));
      const logRatio = new Array<number>(TPE_CANDIDATES).fill(0);
      for (const p of space) {
        if (p.kind === "bool" || p.kind === "categorical") {
          const choices = choicesOf(p);
          const l = categoryWeights(p, good);
          const g = categoryWeights(p, bad);
          for (let c = 0; c < TPE_CANDIDATES; c++) {
            const k = pickWeighted(l, rng);
            (candidates[c] as Params)[p.name] = choices[k] as ParamValue;
            logRatio[c] = (logRatio[c] as number) + Math.log(l[k] as number) - Math.log(g[k] as number);
          }
          continue;
        }
        const range = (p.max as number) - (p.min as number);
        const step = p.step ?? (p.kind === "int" ? 1 : 0);
        // The bandwidth floor shrinks as trials accumulate: without it the good kernels collapse
        // onto the first incumbent and the search stops exploring.
        const minSigma = Math.max(0.8 / Math.sqrt(ranked.length), 0.01, step > 0 ? step / range / 2 : 0);
        const l = fitParzen(
          good.map((o) => toUnit(p, o.params[p.name] as number)),
          minSigma,
          prior,
        );
        const g = fitParzen(
          bad.map((o) => toUnit(p, o.params[p.name] as number)),
          minSigma,
          prior,
        );
        for (let c = 0; c < TPE_CANDIDATES; c++) {
          const v = fromUnit(p, parzenSample(l, rng));
          const u = toUnit(p, v);
          (candidates[c] as Params)[p.name] = v;
          logRatio[c] = (logRatio[c] as number) + Math.log(parzenPdf(l, u)) - Math.log(parzenPdf(g, u));
        }
      }
      let best = 0;
      for (let c = 1; c < TPE_CANDIDATES; c++) if ((logRatio[c] as number) > (logRatio[best] as number)) best = c;
      return candidates[best] as Params;
    },
  };
}
