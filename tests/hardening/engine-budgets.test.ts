// Time budgets hold at any nesting, in both backends (issue 16, part 1): the run's deadline stops
// nested loops, long builtins and request.security contexts with the partial result and
// `timed_out`; TradingView's per-bar loop limit stops the outermost loop with its error. No timing
// is asserted: only which of the two limits ended the run and what came back.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { bars, v6 } from "../helpers/run-both.js";

const MODES = ["interpret", "compile"] as const;

async function run(source: string, mode: (typeof MODES)[number], timeoutSeconds?: number, n = 50) {
  return new Runtime().run(source, bars(n), { mode, timeoutSeconds });
}

describe("the run's deadline", () => {
  for (const mode of MODES) {
    it(`stops triple-nested loops on the first bar with the partial result (${mode})`, async () => {
      const src = v6(
        "x = 0\nfor i = 0 to 1000\n    for j = 0 to 1000\n        for k = 0 to 1000\n            x += 1\nplot(x)",
      );
      const r = await run(src, mode, 0.2);
      expect(r.error).toBeUndefined();
      expect(r.timed_out).toBe(true);
      expect(r.count).toBe(0);
      expect(r.mode).toBe(mode);
    });

    it(`stops a loop inside a user function called in a loop, mid-run (${mode})`, async () => {
      const src = v6(
        // 50k steps a bar: far below the 500 ms loop limit even on a loaded machine (a cold first bar included),
        // far above the 1 s deadline in 20,000 bars in either backend
        "f(n) =>\n    s = 0.0\n    for i = 0 to n\n        s += math.sqrt(i)\n    s\nt = 0.0\nfor r = 0 to 9\n    t += f(5000)\nplot(t)",
      );
      const r = await run(src, mode, 1, 20000);
      expect(r.error).toBeUndefined();
      expect(r.timed_out).toBe(true);
      expect(r.count).toBeGreaterThan(0);
      expect(r.count).toBeLessThan(20000);
      expect(r.series.plot_0!.length).toBe(r.count);
    });

    it(`stops matrix products in a loop (${mode})`, async () => {
      const src = v6(
        "m = matrix.new<float>(120, 120, 1.0)\nx = 0.0\nfor i = 0 to 100000\n    p = m.mult(m)\n    x += p.get(0, 0)\nplot(x)",
      );
      const r = await run(src, mode, 0.2);
      expect(r.error).toBeUndefined();
      expect(r.timed_out).toBe(true);
    });
  }

  for (const mode of MODES)
    it(`covers request.security's secondary runs (${mode}: the secondary run's own backend)`, async () => {
      const src = v6(
        "f() =>\n    s = 0\n    for i = 0 to 1000000000\n        s += 1\n    s\nplot(request.security(syminfo.tickerid, '1D', f()))",
      );
      const r = await new Runtime().run(src, bars(50), { mode, timeoutSeconds: 0.2 });
      expect(r.error).toBeUndefined();
      expect(r.timed_out).toBe(true);
      expect(r.mode).toBe(mode);
    });

  it("no deadline by default: a loop stops at TradingView's loop limit instead", async () => {
    for (const mode of MODES) {
      const r = await run(v6("x = 0\nwhile true\n    for j = 0 to 10\n        x += 1\nplot(x)"), mode);
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.error_kind).toBe("runtime");
      expect(r.error_bar).toBe(0);
      // the statement running when the limit is seen: the outer loop or a statement of its body
      expect([4, 5, 6]).toContain(r.diagnostics?.[0]?.line);
      expect(r.timed_out).toBeUndefined();
    }
  });
});
