import { it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "./bars.js";
it("survey", async () => {
  const dir = "tests/realworld/scripts/";
  const bars = randomWalkBars();
  for (const f of readdirSync(dir).sort()) {
    const src = readFileSync(dir + f, "utf8");
    const rt = new Runtime("CHART", { timeframe: "60" });
    const t = Date.now();
    const a = await rt.run(src, bars, { mode: "interpret" });
    const t1 = Date.now() - t;
    const kinds: Record<string, number> = {};
    for (const d of a.drawings) kinds[String(d.kind ?? d.type)] = (kinds[String(d.kind ?? d.type)] ?? 0) + 1;
    const allNa = Object.entries(a.series).filter(([, v]) => v.every((x) => x === null || (typeof x === "number" && Number.isNaN(x)))).map(([k]) => k);
    console.log("SV", f, t1 + "ms", a.error ? "ERR" : "ok", "trades", a.strategy ? a.strategy.trades.length + "/" + a.strategy.open_trades.length : "-", "draw", JSON.stringify(kinds), "alerts", a.alerts.length, "allNa", JSON.stringify(allNa), "logs", a.logs.length);
  }
});
