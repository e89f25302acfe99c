// The bar sets a thread holds for optimize trials (src/server/trial-bars.ts): one copy per key in the
// thread's own (not shared) memory, the same columns for every later trial with that key, bounded in
// count and bytes, least recently used dropped first.
import { afterEach, describe, expect, it } from "vitest";
import {
  dropTrialBars,
  heldTrialBars,
  MAX_BYTES,
  MAX_SETS,
  newTrialBarsKey,
  ownTrialBars,
  studyOwnsBars,
  trialColumns,
} from "../../src/server/trial-bars.js";
import { columnStudyData, createInProcessEngine, studyTrialRunner, TRIAL_BROKER } from "../../src/server/engine.js";
import { toBarArray, type PreparedStudy } from "../../src/optimize/index.js";
import { CROSS_STRATEGY } from "../optimize/cross-strategy.js";
import { isSettledTime, normalizeBars } from "../../src/core/bars.js";
import { barCloseHits, cachedBarCloseTimes, barCloseTimes } from "../../src/runtime/bar-close.js";
import { packBars, shareBars } from "../../src/worker/protocol.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";

afterEach(() => dropTrialBars());

const shared = (n: number, seed = 1) => shareBars(packBars(randomWalkBars(n, { seed })));

describe("trial bars held per thread", () => {
  it("copies a shared set once into ordinary memory and serves that copy for the key", () => {
    const s = shared(300);
    expect(s.close.buffer).toBeInstanceOf(SharedArrayBuffer);
    const key = newTrialBarsKey();
    const own = ownTrialBars(key, s);
    expect(own.close.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(own.close)).toEqual(Array.from(s.close));
    expect(Array.from(own.volume)).toEqual(Array.from(s.volume));
    expect(ownTrialBars(key, s)).toBe(own);
    // another key is another set, even over the same columns
    const again = ownTrialBars(newTrialBarsKey(), s);
    expect(again).not.toBe(own);
    expect(heldTrialBars()).toBe(2);
  });

  it("ordinary (not shared) columns are read as they are: nothing is copied or held", () => {
    const plain = packBars(randomWalkBars(200));
    expect(ownTrialBars(newTrialBarsKey(), plain)).toBe(plain);
    expect(heldTrialBars()).toBe(0);
  });

  it("holds at most MAX_SETS sets, dropping the least recently used", () => {
    const keys = Array.from({ length: MAX_SETS + 3 }, newTrialBarsKey);
    const sets = keys.map((_, i) => shared(50, i + 1));
    const first = ownTrialBars(keys[0]!, sets[0]!);
    for (let i = 1; i < keys.length; i++) {
      ownTrialBars(keys[i]!, sets[i]!);
      if (i < MAX_SETS) expect(ownTrialBars(keys[0]!, sets[0]!)).toBe(first); // keep the first one in use
    }
    expect(heldTrialBars()).toBe(MAX_SETS);
    expect(ownTrialBars(keys[0]!, sets[0]!)).toBe(first);
    // the second key was the least recently used: it is copied afresh
    const second = ownTrialBars(keys[1]!, sets[1]!);
    expect(Array.from(second.close)).toEqual(Array.from(sets[1]!.close));
    expect(heldTrialBars()).toBe(MAX_SETS);
  });

  it("holds at most MAX_BYTES, but always the set in use", () => {
    const big = Math.ceil(MAX_BYTES / 48 / 2) + 10; // two of these pass the cap
    const a = newTrialBarsKey();
    const b = newTrialBarsKey();
    ownTrialBars(a, shared(big, 1));
    ownTrialBars(b, shared(big, 2));
    expect(heldTrialBars()).toBe(1);
    const huge = newTrialBarsKey();
    ownTrialBars(huge, shared(2 * big, 3));
    expect(heldTrialBars()).toBe(1);
  });

  it("a held set's range is one settled object: runs get its checked columns without a scan or compare", () => {
    const own = ownTrialBars(newTrialBarsKey(), shared(400));
    const whole = trialColumns(own, 0, 400);
    expect(trialColumns(own, 0, 400)).toBe(whole);
    const part = trialColumns(own, 100, 300);
    expect(trialColumns(own, 100, 300)).toBe(part);
    expect(part).not.toBe(whole);
    expect(Array.from(part.close)).toEqual(Array.from(own.close.subarray(100, 300)));
    // normalizeBars answers the settled columns themselves, as checked once
    const cols = normalizeBars(whole);
    expect(normalizeBars(whole)).toBe(cols);
    expect(isSettledTime((cols as { time: Float64Array }).time)).toBe(true);
    // the close times are served again without comparing the time column (and are the ones computed afresh)
    const time = (cols as { time: Float64Array }).time;
    const first = cachedBarCloseTimes(time, "1", "UTC", undefined);
    const hits = barCloseHits.n;
    expect(cachedBarCloseTimes(time, "1", "UTC", undefined)).toBe(first);
    expect(barCloseHits.n).toBe(hits + 1);
    expect(Array.from(first)).toEqual(Array.from(barCloseTimes(time, "1", "UTC", undefined)));
  });

  it("ordinary columns are never settled: the caller may write into them later", () => {
    const plain = packBars(randomWalkBars(200));
    const own = ownTrialBars(newTrialBarsKey(), plain);
    const cols = trialColumns(own, 0, 200);
    expect(normalizeBars(cols)).not.toBe(normalizeBars(cols));
    expect(isSettledTime(plain.time)).toBe(false);
    plain.close[5] = Number.NaN;
    expect(normalizeBars(trialColumns(own, 0, 200))).toMatchObject({ bar: 5 });
  });

  it("columns a study packed itself are served as a held set's: one settled object per range", () => {
    const plain = packBars(randomWalkBars(200));
    studyOwnsBars(plain);
    const own = ownTrialBars(newTrialBarsKey(), plain);
    expect(own).toBe(plain);
    const cols = trialColumns(own, 20, 180);
    expect(trialColumns(own, 20, 180)).toBe(cols);
    expect(isSettledTime((normalizeBars(cols) as { time: Float64Array }).time)).toBe(true);
    // nothing is held for them: they go with the study
    expect(heldTrialBars()).toBe(0);
  });

  it("a study on the calling thread settles the columns it packed from rows, never a caller's own columns", async () => {
    const job = { script: CROSS_STRATEGY, symbol: "CHART", options: { mode: "auto" as const }, broker: TRIAL_BROKER };
    /** The close-time cache hits of two trial runs over one range of the study's bars. */
    const hitsOfTwoRuns = async (rows: ReturnType<typeof toBarArray>): Promise<number> => {
      const run = studyTrialRunner(createInProcessEngine(), { bars: rows } as unknown as PreparedStudy, job);
      const before = barCloseHits.n;
      for (let i = 0; i < 2; i++) await run({}, rows, [50, 250]);
      return barCloseHits.n - before;
    };
    // rows: the study's own columns, one settled range object, whose close times the second run reuses
    expect(await hitsOfTwoRuns(randomWalkBars(300, { seed: 2 }))).toBe(1);
    // the caller's Float64Array columns (rows that remember them): a new view each run, nothing settled
    const callers = packBars(randomWalkBars(300, { seed: 2 }));
    expect(await hitsOfTwoRuns(toBarArray(callers))).toBe(0);
    expect(isSettledTime(callers.time)).toBe(false);
    // a request's bars (/optimize on an engine on the calling thread, workerd's): rows and number
    // arrays are packed anew and settled; Float64Array columns stay the caller's
    const engine = createInProcessEngine();
    const asNumbers = Object.fromEntries(Object.entries(callers).map(([k, v]) => [k, Array.from(v as Float64Array)]));
    for (const [data, hits] of [
      [randomWalkBars(300, { seed: 2 }), 1],
      [asNumbers, 1],
      [callers, 0],
    ] as const)
      expect(await hitsOfTwoRuns(columnStudyData(engine, data)!)).toBe(hits);
  });
});
