import { it } from "vitest";
import { readFileSync } from "node:fs";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "./bars.js";
it("scratch", async () => {
  const src = readFileSync("/tmp/s.pine", "utf8");
  const rt = new Runtime("CHART", { timeframe: "60" });
  for (const mode of ["interpret", "compile"]) {
    const r = await rt.run(src, randomWalkBars(), { mode });
    console.log(mode, r.mode, r.error, JSON.stringify(r.diagnostics), r.drawings.length);
    for (const [k, v] of Object.entries(r.series)) console.log(k, JSON.stringify(v.slice(0, 60)), v.filter((x) => x === null || Number.isNaN(x)).length);
  }
});
