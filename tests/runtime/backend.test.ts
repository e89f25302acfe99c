// The compile-backend hook of the Runtime: mode resolution and fallbacks, exercised with a stand-in
// backend built from the interpreter (the real one lives in src/compile).
import { afterEach, describe, expect, it } from "vitest";
import { Runtime, setCompileBackend, type CompileBackend } from "../../src/runtime/index.js";
import { Compiler } from "../../src/interpret/compiler.js";
import { bars, v6 } from "../helpers/run-both.js";

const data = bars(8);
const src = v6("x = close * 2\nplot(x)");

/** A stand-in "compiled" loop: the interpreter's closures driven bar by bar. */
const standIn =
  (fail?: "compile" | "loop"): CompileBackend =>
  (prog, state, ctx) => {
    if (fail === "compile") throw new Error("loops over maps are not compile-eligible");
    const main = new Compiler(prog, state, ctx).main();
    return {
      timedOut: false,
      loop(from, to) {
        for (let bar = from; bar < to; bar++) {
          const c = ctx.columns;
          ctx.barIndex = bar;
          ctx.time = c.time[bar]!;
          ctx.open = c.open[bar]!;
          ctx.high = c.high[bar]!;
          ctx.low = c.low[bar]!;
          ctx.close = c.close[bar]!;
          ctx.volume = c.volume[bar]!;
          state.setBar(ctx);
          if (fail === "loop" && bar === 3) throw new TypeError("boom");
          main();
          state.commit();
        }
        return to;
      },
    };
  };

afterEach(() => setCompileBackend(null));

describe("compile backend hook", () => {
  it("compile and auto run the registered backend; interpret stays interpret", async () => {
    setCompileBackend(standIn());
    const rt = new Runtime();
    const c = await rt.run(src, data, { mode: "compile" });
    expect(c.mode).toBe("compile");
    expect(c.series.plot_0).toEqual(data.map((b) => b.close * 2));
    const a = await rt.run(src, data, { mode: "auto" });
    expect(a.mode).toBe("compile");
    expect(a.auto_backend).toBe("compile");
    expect(a.compile_fallback_reason).toBeUndefined();
    expect((await rt.run(src, data, { mode: "interpret" })).mode).toBe("interpret");
  });
  it("interpret-only options keep auto on interpret with the reason", async () => {
    setCompileBackend(standIn());
    const r = await new Runtime().run(src, data, { mode: "auto", profiler: true });
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toBe("the profiler requires interpret");
  });
  it("a script the backend refuses falls back with its reason", async () => {
    setCompileBackend(standIn("compile"));
    const r = await new Runtime().run(src, data, { mode: "auto" });
    expect(r.mode).toBe("interpret");
    expect(r.auto_backend).toBe("interpret");
    expect(r.compile_fallback_reason).toBe("loops over maps are not compile-eligible");
    expect(r.series.plot_0).toEqual(data.map((b) => b.close * 2));
  });
  it("compiled code that throws is re-run by the interpreter", async () => {
    setCompileBackend(standIn("loop"));
    const r = await new Runtime().run(src, data, { mode: "auto" });
    expect(r.mode).toBe("interpret");
    expect(r.compile_fallback_reason).toMatch(/compiled code failed: boom/);
    expect(r.series.plot_0).toEqual(data.map((b) => b.close * 2));
  });
});
