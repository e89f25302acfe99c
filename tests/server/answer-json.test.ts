// /optimize's answer written with the winner's full results as the JSON text their threads wrote
// (answer-json.ts): the same text as JSON.stringify of the answer holding the results as objects.

import { describe, expect, it } from "vitest";
import { jsonRun, optimizeAnswerJson } from "../../src/server/answer-json.js";
import { createInProcessEngine, studyFullJsonRunner, studyFullRunner } from "../../src/server/engine.js";
import type { OptimizeResult } from "../../src/optimize/index.js";
import { createRng } from "../../src/optimize/prng.js";

/** A random JSON-ish value: nested objects and arrays, NaN / infinities / -0, undefined fields, odd strings. */
function randomValue(rnd: () => number, depth: number): unknown {
  const pick = Math.floor(rnd() * (depth > 2 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return [Number.NaN, -0, Infinity, 1e-310, rnd() * 1e6][Math.floor(rnd() * 5)];
    case 2:
      return ["", 'q"uote', "line\nbreak", "\u2028", "é😀", "\u0000"][Math.floor(rnd() * 6)];
    case 3:
      return rnd() < 0.5;
    case 4:
      return undefined;
    case 5:
      return Math.round(rnd() * 100) - 50;
    case 6:
    case 7: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(rnd() * 5);
      for (let i = 0; i < n; i++) o[`k${i}${rnd() < 0.2 ? '"' : ""}`] = randomValue(rnd, depth + 1);
      return o;
    }
    default:
      return Array.from({ length: Math.floor(rnd() * 4) }, () => randomValue(rnd, depth + 1));
  }
}

function randomResult(rnd: () => number): Record<string, unknown> {
  return {
    count: Math.floor(rnd() * 100),
    strategy: randomValue(rnd, 1),
    plots: randomValue(rnd, 1),
    events: undefined,
  };
}

describe("optimizeAnswerJson", () => {
  it("writes the text JSON.stringify writes of the answer with its results as objects (random answers)", () => {
    const rng = createRng(18);
    const rnd = () => rng.next();
    for (let i = 0; i < 400; i++) {
      const head = randomValue(rnd, 1);
      const rest = head !== null && typeof head === "object" && !Array.isArray(head) ? head : { v: head };
      const shape = Math.floor(rnd() * 4);
      const full = randomResult(rnd);
      const sets = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
        symbol: rnd() < 0.5 ? null : 'A"B',
        timeframe: rnd() < 0.5 ? null : "60",
        result: rnd() < 0.3 ? null : randomResult(rnd),
      }));
      // as the driver builds it: the study's fields, then best_result (and best_results) last
      const asObjects: Record<string, unknown> = { ...rest };
      const asText: Record<string, unknown> = { ...rest };
      if (shape >= 1) {
        asObjects.best_result = shape === 1 ? null : full;
        asText.best_result = shape === 1 ? null : jsonRun(JSON.stringify(full));
      }
      if (shape === 3) {
        asObjects.best_results = sets;
        asText.best_results = sets.map((s) => ({ ...s, result: s.result && jsonRun(JSON.stringify(s.result)) }));
      }
      const expected = JSON.stringify({ status: "success", ...asObjects });
      expect(optimizeAnswerJson(asText as unknown as OptimizeResult)).toBe(expected);
      // results as their UTF-8 bytes (a pool thread's runJson): the answer is the same text's bytes
      const asBytes: Record<string, unknown> = { ...rest };
      const bytesOf = (v: unknown) => jsonRun(new TextEncoder().encode(JSON.stringify(v)));
      if (shape >= 1) asBytes.best_result = shape === 1 ? null : bytesOf(full);
      if (shape === 3) asBytes.best_results = sets.map((s) => ({ ...s, result: s.result && bytesOf(s.result) }));
      const bytes = optimizeAnswerJson(asBytes as unknown as OptimizeResult);
      if (shape >= 2) expect(bytes).toBeInstanceOf(Uint8Array);
      expect(typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes)).toBe(expected);
      // results held as objects (an engine without runJson) are written as they are
      expect(optimizeAnswerJson(asObjects as unknown as OptimizeResult)).toBe(expected);
    }
  });

  it("a JsonRun survives the driver's copy without its events, and JSON.stringify skips its field", () => {
    const run = jsonRun('{"count":3}');
    const { events: _e, ...copied } = run as unknown as { events?: unknown };
    expect(optimizeAnswerJson({ best_result: copied } as unknown as OptimizeResult)).toBe(
      '{"status":"success","best_result":{"count":3}}',
    );
    expect(JSON.stringify(run)).toBe("{}");
  });

  it("the full JSON runner answers the text of the full runner's result without events", async () => {
    const engine = createInProcessEngine();
    const script =
      '//@version=6\nstrategy("x")\nlen = input.int(5, "Len")\nif ta.crossover(close, ta.sma(close, len))\n    strategy.entry("L", strategy.long)\nif ta.crossunder(close, ta.sma(close, len))\n    strategy.close("L")\nplot(close)\n';
    const bars = Array.from({ length: 300 }, (_, i) => {
      const c = 100 + 10 * Math.sin(i / 7) + (i % 5);
      return { time: 1_700_000_000_000 + i * 60_000, open: c - 1, high: c + 2, low: c - 2, close: c, volume: 10 };
    });
    const job = { script, symbol: "CHART", options: { mode: "auto" as const } };
    const ref = { index: 0, symbol: null, timeframe: null };
    const asText = await studyFullJsonRunner(engine, job)({ Len: 9 }, bars, ref);
    const { events: _e, ...asObject } = await studyFullRunner(engine, job)({ Len: 9 }, bars, ref);
    const untimed = (s: string) => s.replace(/"run_id":"[0-9a-f]+"/, "").replace(/"profile":\{[^}]*\{[^}]*\}\}/, "");
    const text = optimizeAnswerJson({ best_result: asText } as unknown as OptimizeResult) as string;
    expect(untimed(text)).toBe(untimed(JSON.stringify({ status: "success", best_result: asObject })));
    expect((asObject as { strategy: { trades: unknown[] } }).strategy.trades.length).toBeGreaterThan(0);
  });
});
