// Plot columns left unfilled (src/builtins/plot/store.ts): an output whose call is a top-level
// statement (check/once-sites.ts everyBarSites) writes its cell on every bar, so its column is not
// filled with NaN first. A column taken back from an earlier run still holds that run's values:
// the results must be exactly those of fresh columns, na cells included, in both backends, also
// when the run stops early, and outputs whose calls do not run on every bar still read na there.
import { describe, expect, it } from "vitest";
import { collect, gc } from "../helpers/gc.js";
import { everyBarSites } from "../../src/check/once-sites.js";
import { plotColumnReuse } from "../../src/builtins/plot/store.js";
import { Runtime } from "../../src/runtime/index.js";
import { checkSource, parseSource } from "../../src/runtime/program-cache.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";

// every plot kind at the top level, with na on some bars, and one plot in a ternary's branch (not
// every bar; the checker keeps plots out of local blocks and functions)
const script = (stopAt: number) => `//@version=6
indicator("p", overlay = true)
odd = bar_index % 2 == 1
p1 = plot(odd ? close : na, "p1")
p2 = plot(open, "p2")
plotshape(odd, "shape")
plotchar(bar_index % 3 == 0 ? high : na, "char", "x")
plotarrow(odd ? 1 : bar_index % 3 == 0 ? -1 : na, "arrow")
bgcolor(odd ? color.red : na, title = "bg")
barcolor(odd ? na : color.blue, title = "bar")
fill(p1, p2, color = bar_index % 4 == 0 ? color.green : na, title = "fill")
plotcandle(open, high, low, odd ? close : na, "candle")
x = bar_index % 7 == 0 ? plot(low, "in tern") : na
if bar_index == ${stopAt}
    runtime.error("stop")
`;

const poison = `//@version=6
indicator("q")
${Array.from({ length: 14 }, (_, i) => `plot(close * 1000 + ${i}, "q${i}")`).join("\n")}
`;

describe("plot columns of outputs written on every bar", () => {
  it("are the top-level calls and plain declarations' calls, nothing nested, no `var`", () => {
    const src = `//@version=6
indicator("s")
a = plot(close)
var b = plot(open)
plot(high)
c = close > open ? plot(low) : na
d = ta.sma(close, 3) + 1
`;
    const prog = checkSource(src, parseSource(src), []).program!;
    const top = prog.body.stmts;
    const siteOf = (i: number) => {
      const s = top[i]!;
      const e = s.k === "expr" ? s.e : s.k === "decl" ? s.init : null;
      return e !== null && e.k === "call" ? e.site : -1;
    };
    const sites = everyBarSites(prog.body);
    expect(sites.has(siteOf(0))).toBe(true);
    expect(sites.has(siteOf(1))).toBe(false);
    expect(sites.has(siteOf(2))).toBe(true);
    expect(sites.size).toBe(2);
  });

  it("read exactly as fresh NaN-filled columns do after columns holding other values are reused", async () => {
    const bars = syntheticBars(900);
    for (const mode of ["interpret", "compile"] as const) {
      for (const stopAt of [-1, 400]) {
        const want = JSON.stringify(strip(await new Runtime().run(script(stopAt), bars, { mode })));
        // (interpret and compile agree)
        expect(JSON.stringify(strip(await new Runtime().run(script(stopAt), bars, { mode: "interpret" })))).toBe(want);
        // (its result dropped at once: its columns go back once it is collected)
        await new Runtime().run(poison, bars, { mode });
        // (a later run replaces the last run's context, which the Runtime keeps: runtime/evaluate.ts lastRun)
        await new Runtime().run('//@version=6\nindicator("e")\nx = close\n', bars, { mode });
        await collect();
        const reused = plotColumnReuse.n;
        const again = await new Runtime().run(script(stopAt), bars, { mode });
        expect(plotColumnReuse.n, `${mode}: columns reused`).toBeGreaterThan(reused);
        expect(JSON.stringify(strip(again)), `${mode} stop ${stopAt}`).toBe(want);
        const series = again.series as Record<string, (number | boolean | null)[]>;
        expect(series.p1![0]).toBeNull();
        expect(series["in tern"]![1]).toBeNull();
        if (stopAt > 0) expect(again.error).toMatch(/stop/);
      }
    }
  }, 120_000);
});

describe("plot columns waiting to be handed back", () => {
  it("are bounded when runs are awaited back to back in one job (the registry's callbacks never run there)", async () => {
    const bars = syntheticBars(20_000);
    const src = poison;
    const rt = new Runtime();
    const bytes: number[] = [];
    // (14 plots of 20k bars: 2.2 MB of columns a run, all kept until the loop yielded)
    for (let i = 0; i < 30; i++) {
      await rt.run(src, bars, { mode: "compile" });
      gc();
      bytes.push(process.memoryUsage().arrayBuffers);
    }
    expect(bytes[29]! - bytes[4]!, bytes.map((b) => (b / 1e6).toFixed(0)).join(" ")).toBeLessThan(24e6);
  }, 120_000);
});

function strip(r: object): object {
  const { run_id: _r, profile: _p, mode: _m, ...rest } = r as Record<string, unknown>;
  return rest;
}
