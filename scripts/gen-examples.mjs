#!/usr/bin/env node
// Generates the example data sets of examples/ (checked in; re-running gives the same bytes):
// - examples/stock-daily.csv: 750 weekdays of a seeded random-walk stock ("ACME", from 2021-01-04,
//   daily volatility 1.8%, a slight upward drift, prices in cents);
// - examples/eurusd-1h.csv: 2,000 hourly bars of an FX-like random walk (from 2024-01-01 22:00 UTC,
//   no bars from Friday 21:00 to Sunday 22:00 UTC, 0.11% an hour, 5 decimals, tick volumes).
// Both come from randomWalkBars (src/runtime/synthetic.ts), the generator `resin run --bars N` uses.
// Usage: node scripts/gen-examples.mjs (after `npm run build:lib`, which npm install runs).
import { existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const lib = resolve(root, "dist", "index.js");
if (!existsSync(lib)) {
  console.error("gen-examples: dist/ is missing; run `npm run build:lib` first");
  process.exit(1);
}
const { randomWalkBars } = await import(pathToFileURL(lib).href);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The first n times from `start` on, stepping by `step`, that `open(t)` accepts. */
function times(n, start, step, open) {
  const out = [];
  for (let t = start; out.length < n; t += step) if (open(new Date(t))) out.push(t);
  return out;
}

function csv(bars, stamps, decimals) {
  const lines = ["time,open,high,low,close,volume"];
  bars.forEach((b, i) => {
    const iso = new Date(stamps[i]).toISOString().replace(".000Z", "Z");
    lines.push(
      [
        iso,
        b.open.toFixed(decimals),
        b.high.toFixed(decimals),
        b.low.toFixed(decimals),
        b.close.toFixed(decimals),
        b.volume,
      ].join(","),
    );
  });
  return lines.join("\n") + "\n";
}

function write(name, bars, stamps, decimals) {
  writeFileSync(resolve(root, "examples", name), csv(bars, stamps, decimals));
  console.log(`examples/${name}: ${bars.length} bars`);
}

// a stock: weekdays only, one bar a day at 00:00 UTC
const dailyN = 750;
const daily = randomWalkBars(dailyN, {
  seed: 2021,
  start: 48.5,
  volatility: 0.018,
  drift: 0.0003,
  decimals: 2,
  volume: 1_200_000,
});
const weekday = (d) => d.getUTCDay() !== 0 && d.getUTCDay() !== 6;
write("stock-daily.csv", daily, times(dailyN, Date.UTC(2021, 0, 4), DAY, weekday), 2);

// FX: open from Sunday 22:00 to Friday 21:00 UTC
const hourlyN = 2000;
const fx = randomWalkBars(hourlyN, { seed: 1999, start: 1.0852, volatility: 0.0011, decimals: 5, volume: 3500 });
const fxOpen = (d) => {
  const day = d.getUTCDay();
  const h = d.getUTCHours();
  if (day === 6) return false;
  if (day === 5) return h < 21;
  if (day === 0) return h >= 22;
  return true;
};
write("eurusd-1h.csv", fx, times(hourlyN, Date.UTC(2024, 0, 1, 22), HOUR, fxOpen), 5);
