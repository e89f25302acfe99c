// Every strategy script in the repository's test and bench sets (built-in strategies, the real-world
// corpus, bench/, the TradingView and PineForge conformance cases), by a name saying where it is from:
// the sweeps of tests/compile (fills.test.ts, realtime.test.ts) run them all in both backends.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PINEFORGE, readData, ROOT, TRADINGVIEW } from "./data.js";

export function repositoryStrategies(): [string, string][] {
  const out: [string, string][] = [];
  const add = (name: string, src: string) => {
    if (/^\s*strategy\s*\(/m.test(src)) out.push([name, src]);
  };
  const dir = (d: string) =>
    readdirSync(d)
      .filter((f) => f.endsWith(".pine"))
      .sort()
      .map((f) => [f, readFileSync(join(d, f), "utf8")] as const);
  for (const [f, s] of dir(join(ROOT, "tests", "strategy", "builtin-scripts"))) add(`builtin/${f}`, s);
  for (const [f, s] of dir(join(ROOT, "tests", "realworld", "scripts"))) add(`realworld/${f}`, s);
  for (const [f, s] of dir(join(ROOT, "bench"))) add(`bench/${f}`, s);
  const tv = join(TRADINGVIEW, "strategy");
  for (const c of readdirSync(tv).sort()) add(`tradingview/${c}`, readData(join(tv, c, "script.pine")));
  const pf = join(PINEFORGE, "validation");
  for (const c of readdirSync(pf).sort()) add(`pineforge/${c}`, readData(join(pf, c, "strategy.pine")));
  return out;
}
