import { it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "./bars.js";
it("rtcmp", async () => {
  const dir = "tests/realworld/scripts/";
  const bars = randomWalkBars(600);
  for (const f of readdirSync(dir).sort()) {
    const src = readFileSync(dir + f, "utf8");
    const rt = new Runtime("CHART", { timeframe: "60" });
    const a = await rt.run(src, bars, { mode: "interpret" });
    const b = await rt.run(src, bars, { mode: "interpret", realtimeBars: 3, realtimeTicks: 4 });
    if (a.error || b.error) continue;
    for (const k of Object.keys(a.series)) {
      const x = a.series[k]!, y = b.series[k] ?? [];
      const i = x.findIndex((v, j) => !(Object.is(v, y[j]) || (v === null && y[j] === null) || (typeof v === "number" && typeof y[j] === "number" && Math.abs(v - (y[j] as number)) <= 1e-9 * Math.max(1, Math.abs(v)))));
      if (i >= 0) { console.log("RD", f, k, i, x[i], y[i]); break; }
    }
  }
});
