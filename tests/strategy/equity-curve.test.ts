// strategy/equity-curve: a curve whose flat stretches are repeats of the value before reads as the
// plain array of a value per bar it replaces, through growth, hand-outs to results and rollbacks of
// its counts (broker snapshots).

import { describe, expect, it } from "vitest";
import { scalarsOf, restoreScalars } from "../../src/strategy/snapshot.js";
import { curveValues, EquityCurve } from "../../src/strategy/equity-curve.js";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("EquityCurve", () => {
  it("reads as one value a bar on random pushes and repeats, hand-outs and rollbacks", () => {
    let bars = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = lcg(seed);
      const curve = new EquityCurve(seed % 3 === 0 ? 16 : 100);
      const model: number[] = [];
      const handed: { view: ReturnType<EquityCurve["handOut"]>; want: number[] }[] = [];
      let snap: { counts: ReturnType<typeof scalarsOf>; model: number[] } | null = null;
      // long flat stretches and busy ones, values with -0 and NaN
      const values = [1000, -0, 0, Number.NaN, 1000.5, 999.25];
      for (let i = 0; i < 3000; i++) {
        const r = rnd();
        if (model.length > 0 && r < (i % 500 < 250 ? 0.9 : 0.2)) {
          curve.repeat();
          model.push(model[model.length - 1]);
        } else {
          const v = rnd() < 0.3 ? values[Math.floor(rnd() * values.length)] : 1000 + rnd() * 50;
          curve.push(v);
          model.push(v);
        }
        if (rnd() < 0.01) handed.push({ view: curve.handOut(), want: model.slice() });
        // (one draw decides: a snapshot taken, or one put back; most bars neither)
        const event = rnd();
        if (event < 0.01) snap = { counts: scalarsOf(curve), model: model.slice() };
        else if (snap !== null && event < 0.02) {
          restoreScalars(curve, snap.counts);
          model.length = 0;
          model.push(...snap.model);
        }
        expect(curve.count).toBe(model.length);
        expect(Object.is(curve.last, model[model.length - 1])).toBe(true);
      }
      expect(curveValues(curve.handOut())).toEqual(model);
      for (const h of handed) expect(curveValues(h.view)).toEqual(h.want);
      bars += model.length;
    }
    expect(bars).toBeGreaterThan(40 * 1000);
  });

  it("keeps -0 and NaN apart from 0, through repeats", () => {
    const curve = new EquityCurve(16);
    curve.push(-0);
    curve.repeat();
    curve.push(Number.NaN);
    curve.repeat();
    curve.push(0);
    const got = curveValues(curve.handOut());
    expect(got.map((x) => (Object.is(x, -0) ? "-0" : String(x)))).toEqual(["-0", "-0", "NaN", "NaN", "0"]);
  });
});
