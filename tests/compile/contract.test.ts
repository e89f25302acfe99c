// The compile/auto contract of service.md 1.1 (fallbacks always name their reason, the cache key has
// the inputs shape), the lazily converted result series, and the pre-loop fast paths (bar closes,
// timeframe inference, the series arena) against their general versions.
import { afterEach, describe, expect, it } from "vitest";
import { Runtime, setCompileBackend, type CompileBackend } from "../../src/runtime/index.js";
import { cacheKey, compileProgram, NotCompilable } from "../../src/compile/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { barCloseTimes } from "../../src/runtime/bar-close.js";
import { barTimeClose, parseTimeframe } from "../../src/core/time-frames.js";
import { getZone } from "../../src/core/tz.js";
import { parseSession } from "../../src/core/time-sessions.js";
import { inferTimeframe } from "../../src/core/bars.js";
import { createKernels } from "../../src/kernels/index.js";
import { seriesArena } from "../../src/kernels/series.js";

const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;
const data = syntheticBars(300);
/** A declaration whose broker re-runs the script inside a bar (compiles since issue 18 part 5). */
const FILLS = "strategy('s', calc_on_order_fills = true)";
/** What a backend says of a script it refuses (no script of the language is refused today). */
const REFUSED = "a construct is not compile-eligible";
const refusing: CompileBackend = () => {
  throw new NotCompilable(REFUSED);
};
const plain = v6("x = input.int(3, 'X')\nplot(ta.sma(close, x))\nplot(close * 2, 'double')");

afterEach(() => setCompileBackend(compileProgram));

describe("compile and auto fall back with the real reason", () => {
  it("compile mode runs interpret for a script the backend refuses and says why", async () => {
    setCompileBackend(refusing);
    const r = await new Runtime().run(v6("strategy.entry('L', strategy.long)", FILLS), data, {
      mode: "compile",
    });
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toBe(REFUSED);
    expect(r.auto_backend).toBeUndefined();
    setCompileBackend(compileProgram);
    const c = await new Runtime().run(v6("strategy.entry('L', strategy.long)", FILLS), data, { mode: "compile" });
    expect(c.mode).toBe("compile");
    expect(c.compile_fallback_reason).toBeUndefined();
  });
  it("compile mode names interpret-only options and imports", async () => {
    const rt = new Runtime();
    const withInputs = await rt.run(plain, data, { mode: "compile", inputs: { X: 5 } });
    expect(withInputs.mode).toBe("compile");
    expect(withInputs.compile_fallback_reason).toBeUndefined();
    expect((await rt.run(plain, data, { mode: "compile", profiler: true })).compile_fallback_reason).toBe(
      "the profiler requires interpret",
    );
    const lib = {
      namespace: "user",
      name: "L",
      version: 1,
      source: '//@version=6\nlibrary("L")\nexport f(float a) => a',
    };
    // libraries alone force nothing: a script that imports none compiles, one that imports one is
    // refused by the checker with its reason
    const noImport = await rt.run(plain, data, { mode: "compile", libraries: [lib] });
    expect(noImport.mode).toBe("compile");
    expect(noImport.compile_fallback_reason).toBeUndefined();
    const imports = await rt.run(v6("import user/L/1 as l\nplot(l.f(close))"), data, {
      mode: "auto",
      libraries: [lib],
    });
    expect(imports.error).toBeUndefined();
    expect(imports.mode).toBe("interpret");
    expect(imports.compile_fallback_reason).toBe("import statements are not compile-eligible");
    const c = await rt.run(plain, data, { mode: "compile" });
    expect(c.mode).toBe("compile");
    expect(c.compile_fallback_reason).toBeUndefined();
  });
  it("realtime options compile (issue 18); a backend that cannot re-run a bar says so", async () => {
    const rt = new Runtime();
    for (const opts of [
      { realtimeLastBar: true },
      { realtimeTicks: 3 },
      { realtimeBars: 4, realtimeTicks: 2 },
      { realtimeFromBar: 290 },
    ]) {
      const r = await rt.run(plain, data, { mode: "auto", ...opts });
      expect(r.mode, JSON.stringify(opts)).toBe("compile");
      expect(r.auto_backend).toBe("compile");
      expect(r.compile_fallback_reason).toBeUndefined();
    }
    // a host backend without the re-runnable variant (CompiledRun.rerun is optional)
    const noRerun: CompileBackend = (...a) => {
      const { rerun: _r, ...c } = compileProgram(...a);
      return c;
    };
    setCompileBackend(noRerun);
    const r = await rt.run(plain, data, { mode: "auto", realtimeTicks: 3 });
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toBe("this host's compile backend cannot re-run a bar (realtime ticks)");
    const f = await rt.run(v6("strategy.entry('L', strategy.long)", FILLS), data, { mode: "auto" });
    expect(f.compile_fallback_reason).toBe("this host's compile backend cannot re-run a bar (calc_on_order_fills)");
  });
  it("compiled code that throws is re-run by the interpreter in compile mode too", async () => {
    const failing: CompileBackend = (...a) => {
      const c = compileProgram(...a);
      return {
        ...c,
        timedOut: false,
        loop: () => {
          throw new TypeError("boom");
        },
      };
    };
    setCompileBackend(failing);
    const r = await new Runtime().run(plain, data, { mode: "compile" });
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toBe("compiled code failed: boom");
    expect(r.error).toBeUndefined();
    expect(r.count).toBe(data.length);
  });
  it("without a backend the reason says so; no placeholder ever reaches a result", async () => {
    setCompileBackend(null);
    const rt = new Runtime();
    const a = await rt.run(plain, data, { mode: "auto" });
    expect(a.mode).toBe("interpret");
    expect(a.compile_fallback_reason).toBe("no compile backend is registered in this host");
    setCompileBackend(compileProgram);
    const runs = [
      await rt.run(plain, data, { mode: "auto" }),
      await rt.run("//@version=6\nindicator('t')\nplot(", data, { mode: "auto" }),
      await rt.run(v6("plot(nosuchthing)"), data, { mode: "auto" }),
      await rt.run(plain, [{ time: 1, open: 1, high: 0, low: 2, close: 1 }], { mode: "auto" }),
      await rt.run(v6("strategy.entry('L', strategy.long)", FILLS), data, { mode: "auto" }),
    ];
    for (const r of runs) expect(r.compile_fallback_reason ?? "").not.toMatch(/not available yet/);
    expect(runs[0]!.auto_backend).toBe("compile");
    expect(runs[4]!.auto_backend).toBe("compile");
    expect(runs[4]!.compile_fallback_reason).toBeUndefined();
  });
  it("the cache key carries the inputs' shape", async () => {
    expect(cacheKey("h", { b: 1, a: "x" })).toBe("h|a:string,b:number");
    expect(cacheKey("h", { a: 1 })).not.toBe(cacheKey("h", { a: "1" }));
    expect(cacheKey("h")).toBe("h|");
    const keys: string[] = [];
    setCompileBackend((prog, state, ctx, key, hash) => {
      keys.push(key);
      return compileProgram(prog, state, ctx, key, hash);
    });
    await new Runtime("CHART", { inputs: { X: 4 } }).run(plain, data, { mode: "compile" });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}\|X:number$/);
  });
});

describe("result series converted on first read", () => {
  it("read, serialise, clone, spread and assign like plain arrays, identical to interpret", async () => {
    const rt = new Runtime();
    const a = await rt.run(plain, data, { mode: "compile" });
    const b = await rt.run(plain, data, { mode: "interpret" });
    expect(Object.keys(a.series)).toEqual(["plot_0", "double"]);
    expect(JSON.parse(JSON.stringify(a.series))).toEqual(JSON.parse(JSON.stringify(b.series)));
    expect(structuredClone(a).series.double).toEqual(b.series.double);
    expect({ ...a }.plots).toEqual(b.plots);
    expect(a.plots).toBe(a.series.plot_0);
    expect(a.series.plot_0![0]).toBeNull();
    expect(a.series.double![5]).toBe(data[5]!.close * 2);
    a.series.double = [1];
    expect(a.series.double).toEqual([1]);
    a.plots = [];
    expect(a.plots).toEqual([]);
    const none = await rt.run(v6("x = close"), data, { mode: "compile" });
    expect(none.series).toEqual({});
    expect(none.plots).toEqual([]);
  });
});

describe("pre-loop fast paths agree with the general code", () => {
  it("bar closes of regular intraday bars in fixed zones equal barTimeClose bar by bar", () => {
    const day = 86_400_000;
    for (const tfName of ["1", "7", "60", "240", "45S"]) {
      const tf = parseTimeframe(tfName)!;
      for (const zone of ["UTC", "UTC+05:30", "UTC-3"]) {
        for (const ses of ["24x7", "0930-1600", "0000-2359:23456", "1700-1600"]) {
          const step = tf.unit === "S" ? 45_000 : Number(tfName) * 60_000;
          // a regular run across several days, then gaps (weekend-like and odd offsets)
          const times = Float64Array.from(
            { length: 900 },
            (_, i) => 1_700_000_000_000 + i * step + (i > 600 ? 2 * day + 13_000 : 0),
          );
          const got = barCloseTimes(times, tfName, zone, ses);
          const z = getZone(zone)!,
            s = parseSession(ses)!;
          for (let i = 0; i < times.length; i++) {
            const want = barTimeClose(times[i]!, tf, z, s);
            if (!Object.is(got[i], want)) expect.fail(`${tfName} ${zone} ${ses} bar ${i}: ${got[i]} vs ${want}`);
          }
        }
      }
    }
  });
  it("timeframe inference: even spacing and mixed gaps", () => {
    const at = (gaps: number[]) =>
      Float64Array.from(gaps.reduce<number[]>((t, g) => [...t, t[t.length - 1]! + g], [0]));
    expect(inferTimeframe(at(Array(50).fill(60_000)))).toBe("1");
    expect(inferTimeframe(at(Array(50).fill(86_400_000)))).toBe("D");
    expect(inferTimeframe(at([...Array(30).fill(300_000), 900_000, 300_000]))).toBe("5");
    expect(inferTimeframe(at([600_000, 60_000, 60_000]))).toBe("1");
    expect(inferTimeframe(new Float64Array([5]))).toBe("D");
  });
  it("series arenas nest: an inner one never frees the outer's columns", async () => {
    const k = await createKernels();
    const outer = seriesArena(k, 4);
    const p = outer.input([1, 2, 3, 4]);
    const inner = seriesArena(k, 4);
    expect(() => outer.alloc()).toThrow(/nested one is open/);
    inner.input([9, 9, 9, 9]);
    inner.release();
    expect(Array.from(outer.view(p))).toEqual([1, 2, 3, 4]);
    const q = outer.input([5, 6, 7, 8]);
    expect(Array.from(outer.view(q))).toEqual([5, 6, 7, 8]);
    outer.release();
    expect(() => outer.alloc()).toThrow(/after release/);
  });
});
