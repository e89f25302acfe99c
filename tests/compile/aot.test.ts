// The ahead-of-time path of the compile backend in Node (issue 24; the workerd side is
// tests/edge/aot.test.ts): an emitted ES module, imported as a module, is installed under its text's
// hash and the backend runs its factory instead of `new Function`, with results identical to
// interpret; a module installed under another text's hash is never used.

import { afterEach, describe, expect, it } from "vitest";
import { clearCompiled, installCompiled, type CompiledModule } from "../../src/compile/aot.js";
import { emitCompiledModules, type EmittedModule } from "../../src/compile/emit-module.js";
import { clearCompileCache, NotCompilable } from "../../src/compile/index.js";
import { check } from "../../src/check/index.js";
import { parse } from "../../src/lang/index.js";
import { registry } from "../../src/builtins/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars } from "../helpers/run-both.js";
import { loadTaCase } from "../helpers/conformance.js";

const SOURCE = `//@version=6
strategy("aot", overlay = true)
len = input.int(8, "Length")
fast = ta.ema(close, len)
slow = ta.sma(close, len * 2)
var float peak = na
peak := na(peak) ? high : math.max(peak, high)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.close("L")
plot(fast - slow, "spread")
plot(peak, "peak")
`;

function program(source: string) {
  const checked = check(parse(source).ast, registry, []);
  if (!checked.program) throw new Error("check failed");
  return checked.program;
}

async function imported(code: string): Promise<CompiledModule> {
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as CompiledModule;
}

/** Installs the emitted modules, each factory reporting its module to `onCall` when the backend uses it. */
async function installCounting(mods: EmittedModule[], onCall: (m: EmittedModule) => void): Promise<void> {
  const counted: CompiledModule[] = [];
  for (const m of mods) {
    const mod = await imported(m.code);
    counted.push({
      hash: mod.hash,
      factory: () => {
        onCall(m);
        return mod.factory();
      },
    });
  }
  installCompiled(counted);
}

function comparable(r: Record<string, unknown>): string {
  const { run_id: _r, profile: _p, mode: _m, auto_backend: _a, compile_fallback_reason: _c, ...rest } = r;
  return JSON.stringify({ ...rest, events: (rest.events as { run_id?: string }[]).map(({ run_id: _x, ...e }) => e) });
}

afterEach(() => {
  clearCompiled();
  clearCompileCache();
});

describe("ahead-of-time compiled modules", () => {
  it("emits the hoisted and plain variants as ES modules keyed by their text's hash", async () => {
    const mods = emitCompiledModules(program(SOURCE), { script: "aot", sourceHash: "h", deploy: "t" });
    expect(mods.map((m) => m.hoist)).toEqual([true, false]);
    for (const m of mods) {
      const mod = await imported(m.code);
      expect(mod.hash).toBe(m.hash);
      expect(mod.script).toBe("aot");
      expect(typeof mod.factory).toBe("function");
      expect(typeof mod.factory()).toBe("function");
    }
  });

  it("the backend runs an installed module's factory instead of new Function; results equal interpret", async () => {
    const mods = emitCompiledModules(program(SOURCE), { script: "aot", sourceHash: "h", deploy: "t" });
    let calls = 0;
    await installCounting(mods, () => calls++);
    clearCompileCache();
    const rt = new Runtime("CHART", {});
    const data = loadTaCase("macd").bars; // real EURUSD bars: the strategy trades on them
    const compiled = await rt.run(SOURCE, data, { mode: "compile", inputs: { Length: 5 } });
    expect(compiled.mode).toBe("compile");
    expect(calls).toBe(1);
    const interpreted = await rt.run(SOURCE, data, { mode: "interpret", inputs: { Length: 5 } });
    expect(comparable(compiled as never)).toBe(comparable(interpreted as never));
    expect(compiled.strategy?.trades.length).toBeGreaterThan(0);
    // other input values: the backend's cache (per source hash and inputs shape) holds the function
    expect((await rt.run(SOURCE, data, { mode: "compile", inputs: { Length: 6 } })).mode).toBe("compile");
    expect(calls).toBe(1);
    // another inputs shape is another cache entry but the same loop text, so the same module again
    expect((await rt.run(SOURCE, data, { mode: "compile" })).mode).toBe("compile");
    expect(calls).toBe(2);
  });

  it("a module under another text's hash is never used", async () => {
    const other = emitCompiledModules(program(SOURCE.replace('plot(peak, "peak")', "")), {
      script: "other",
      sourceHash: "h2",
      deploy: "t",
    });
    let calls = 0;
    installCompiled(
      other.map((m) => ({
        hash: m.hash,
        factory: () => {
          calls++;
          return null;
        },
      })),
    );
    const r = await new Runtime("CHART", {}).run(SOURCE, bars(50), { mode: "compile" });
    expect(r.mode).toBe("compile"); // Node still has new Function
    expect(calls).toBe(0);
  });

  it("a script the checker rules out has no module, with the reason", () => {
    const src = '//@version=6\nindicator("r")\nplot(close)\n';
    const p = { ...program(src), compileEligible: false, compileReason: "a construct is not compile-eligible" };
    expect(() => emitCompiledModules(p, { script: "r", sourceHash: "h", deploy: "t" })).toThrow(
      new NotCompilable("a construct is not compile-eligible"),
    );
  });
  it("a calc_on_order_fills strategy gets its fills variant too, which a run of it uses", async () => {
    const src =
      '//@version=6\nstrategy("r", calc_on_order_fills = true, pyramiding = 5)\nif bar_index % 3 == 0\n    strategy.entry("L", strategy.long)\nvar n = 0\nn += 1\nplot(n)\n';
    const mods = emitCompiledModules(program(src), { script: "r", sourceHash: "h", deploy: "t" });
    expect(mods.filter((m) => m.fills)).toHaveLength(1);
    expect(mods.filter((m) => !m.fills).length).toBeGreaterThan(0);
    const used: boolean[] = [];
    await installCounting(mods, (m) => used.push(m.fills));
    clearCompileCache();
    const rt = new Runtime("CHART", {});
    const data = bars(60);
    const compiled = await rt.run(src, data, { mode: "compile" });
    expect(compiled.mode).toBe("compile");
    expect(used).toEqual([true]);
    const interpreted = await rt.run(src, data, { mode: "interpret" });
    expect(comparable(compiled as never)).toBe(comparable(interpreted as never));
    expect(compiled.strategy?.open_trades.length).toBeGreaterThan(0);
  });
  it("a program with request.security gets the secondary variant, which its secondary runs use", async () => {
    const src =
      '//@version=6\nindicator("s")\nvar float acc = 0.0\nacc += close - open\nplot(request.security(syminfo.tickerid, "240", acc + ta.sma(close, 3)))\n';
    const mods = emitCompiledModules(program(src), { script: "s", sourceHash: "h", deploy: "t" });
    expect(mods.filter((m) => m.secondary)).toHaveLength(1);
    const used: string[] = [];
    await installCounting(mods, (m) => used.push(m.secondary ? "secondary" : m.hoist ? "hoist" : "plain"));
    clearCompileCache();
    const rt = new Runtime("CHART", { timeframe: "60" });
    const data = bars(200);
    const compiled = await rt.run(src, data, { mode: "compile" });
    expect(compiled.mode).toBe("compile");
    expect(used).toContain("secondary");
    const interpreted = await rt.run(src, data, { mode: "interpret" });
    expect(comparable(compiled as never)).toBe(comparable(interpreted as never));
  });
});
