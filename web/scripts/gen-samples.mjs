// Generates the bundled sample data sets (deterministic, seeded): run `node web/scripts/gen-samples.mjs`.
// Synthetic random walks with volatility regimes, not market data: free to ship without attribution.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "samples");

function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(Math.max(next(), 1e-12))) * Math.cos(2 * Math.PI * next());
  return { next, normal };
}

/** A walk with slowly switching volatility and drift regimes; `times` gives each bar's open time. */
function walk({ seed, times, start, vol, drift, decimals, volumeBase }) {
  const r = rng(seed);
  const f = 10 ** decimals;
  const round = (x) => Math.round(x * f) / f;
  const bars = [];
  let price = start;
  let regimeVol = vol;
  let regimeDrift = drift;
  for (let i = 0; i < times.length; i++) {
    if (r.next() < 0.01) regimeVol = vol * (0.5 + 1.5 * r.next());
    if (r.next() < 0.006) regimeDrift = drift + Math.abs(drift || vol * 0.02) * r.normal() * 2;
    const open = round(price * (1 + r.normal() * regimeVol * 0.05));
    const ret = regimeDrift + r.normal() * regimeVol;
    const close = round(open * Math.exp(ret));
    const high = round(Math.max(open, close) * (1 + Math.abs(r.normal()) * regimeVol * 0.45));
    const low = round(Math.min(open, close) * (1 - Math.abs(r.normal()) * regimeVol * 0.45));
    const volume = Math.round(volumeBase * Math.exp(r.normal() * 0.35) * (1 + (Math.abs(ret) / regimeVol) * 0.6));
    bars.push({ time: times[i], open, high, low, close, volume });
    price = close;
  }
  return bars;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

// Daily crypto-like (trades every day), 2,000 bars from 2020-06-01.
const dailyTimes = Array.from({ length: 2000 }, (_, i) => Date.UTC(2020, 5, 1) + i * DAY);
const btc = walk({
  seed: 20200601,
  times: dailyTimes,
  start: 9450,
  vol: 0.034,
  drift: 0.0009,
  decimals: 2,
  volumeBase: 32_000,
});

// Hourly FX-like: no bars from Friday 21:00 to Sunday 21:00 UTC, 3,000 bars from 2024-01-01 22:00.
const fxTimes = [];
for (let t = Date.UTC(2024, 0, 1, 22); fxTimes.length < 3000; t += HOUR) {
  const d = new Date(t);
  const day = d.getUTCDay();
  const h = d.getUTCHours();
  const closed = (day === 5 && h >= 21) || day === 6 || (day === 0 && h < 21);
  if (!closed) fxTimes.push(t);
}
const fx = walk({ seed: 1080, times: fxTimes, start: 1.0945, vol: 0.0011, drift: 0, decimals: 5, volumeBase: 4_200 });

// 15-minute crypto-like, 4,000 bars.
const m15Times = Array.from({ length: 4000 }, (_, i) => Date.UTC(2025, 2, 3) + i * 15 * 60_000);
const eth = walk({ seed: 15, times: m15Times, start: 2210, vol: 0.0042, drift: 0.00002, decimals: 2, volumeBase: 900 });

const columnar = (bars) => ({
  time: bars.map((b) => b.time),
  open: bars.map((b) => b.open),
  high: bars.map((b) => b.high),
  low: bars.map((b) => b.low),
  close: bars.map((b) => b.close),
  volume: bars.map((b) => b.volume),
});
writeFileSync(join(out, "btc-like-1d.json"), JSON.stringify(columnar(btc)));
writeFileSync(join(out, "eth-like-15m.json"), JSON.stringify(columnar(eth)));
const csv = [
  "time,open,high,low,close,volume",
  ...fx.map((b) => `${new Date(b.time).toISOString()},${b.open},${b.high},${b.low},${b.close},${b.volume}`),
];
writeFileSync(join(out, "eurusd-like-1h.csv"), csv.join("\n") + "\n");
console.log(`wrote ${btc.length} + ${fx.length} + ${eth.length} bars to ${out}`);
