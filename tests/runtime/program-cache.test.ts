// The front-end cache (src/runtime/program-cache.ts) hands the same ResolvedProgram to every run of
// a source, which is only right if no run changes it: every corpus script runs in both modes (and
// with realtime ticks) on a cached program, whose complete reachable contents must be unchanged.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkSource, clearProgramCache, parseSource } from "../../src/runtime/program-cache.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth } from "../helpers/run-both.js";
import { randomWalkBars } from "../realworld/bars.js";

/** Everything reachable from `root`, as lines (objects numbered in visiting order, so sharing shows too). */
function fingerprint(root: unknown): string[] {
  const out: string[] = [];
  const ids = new Map<object, number>();
  const walk = (v: unknown, path: string, depth: number): void => {
    if (typeof v === "function") return void out.push(`${path}=fn`);
    if (v === null || typeof v !== "object") return void out.push(`${path}=${typeof v}:${String(v)}`);
    const seen = ids.get(v);
    if (seen !== undefined) return void out.push(`${path}=#${seen}`);
    ids.set(v, ids.size);
    if (depth > 400) throw new Error("too deep");
    if (ArrayBuffer.isView(v))
      return void out.push(`${path}=${Array.from(v as unknown as ArrayLike<number>).join(",")}`);
    if (v instanceof Map) {
      out.push(`${path}=Map(${v.size})`);
      let i = 0;
      for (const [k, x] of v) {
        walk(k, `${path}<k${i}>`, depth + 1);
        walk(x, `${path}<v${i++}>`, depth + 1);
      }
      return;
    }
    if (v instanceof Set) {
      out.push(`${path}=Set(${v.size})`);
      let i = 0;
      for (const x of v) walk(x, `${path}<${i++}>`, depth + 1);
      return;
    }
    const keys = Object.keys(v);
    out.push(`${path}={${keys.join(",")}}`);
    for (const k of keys) walk((v as Record<string, unknown>)[k], `${path}.${k}`, depth + 1);
  };
  walk(root, "", 0);
  return out;
}

const corpus = join(import.meta.dirname, "..", "corpus");
const realworld = join(import.meta.dirname, "..", "realworld", "scripts");
const pine = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".pine"))
    .sort()
    .map((f) => join(dir, f));
const scripts = [...pine(corpus), ...pine(realworld)];

describe("program cache", () => {
  it("hands out the same program for the same source, and not for libraries", () => {
    const src = `//@version=6\nindicator("c")\nplot(ta.sma(close, 3))\n`;
    clearProgramCache();
    const p1 = parseSource(src);
    const c1 = checkSource(src, p1, []);
    const p2 = parseSource(src);
    expect(p2).toBe(p1);
    expect(checkSource(src, p2, [])).toBe(c1);
    expect(
      checkSource(src, p2, [{ namespace: "x", name: "y", version: 1, source: '//@version=6\nlibrary("y")\n' }]),
    ).not.toBe(c1);
  });

  it("no run changes a cached program (every corpus and real-world script, both modes and realtime ticks)", async () => {
    expect(scripts.length).toBeGreaterThan(400);
    const data = randomWalkBars(60);
    const runtime = { timeframe: "60" };
    let checked = 0;
    for (const file of scripts) {
      const src = readFileSync(file, "utf8");
      const parsed = parseSource(src);
      if (parsed.diagnostics.some((d) => d.severity === "error")) continue;
      const program = checkSource(src, parsed, []).program;
      if (!program) continue;
      const before = fingerprint(program);
      expect(before.length).toBeGreaterThan(20);
      // (the modes' agreement is the corpus tests' business; some scripts read timenow)
      const rt = new Runtime("CHART", runtime);
      for (const mode of ["interpret", "compile"] as const) await rt.run(src, data, { mode });
      await rt.run(src, data, { mode: "interpret", realtimeBars: 2, realtimeTicks: 3 });
      // still the cached object (the runs used it), with the same contents
      expect(checkSource(src, parseSource(src), []).program, file).toBe(program);
      expect(fingerprint(program), file).toEqual(before);
      checked++;
    }
    expect(checked).toBeGreaterThan(400);
  }, 240_000);

  it("a run on a cached program gives the result a run on a fresh one gives", async () => {
    const src = readFileSync(scripts[0]!, "utf8");
    clearProgramCache();
    const fresh = await runBoth(src, bars(80));
    const cached = await runBoth(src, bars(80));
    expect({ ...cached, run_id: "", profile: null }).toEqual({ ...fresh, run_id: "", profile: null });
  });
});
