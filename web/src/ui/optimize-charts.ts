// The optimize panel's two pictures of a study: a heatmap of the score over two chosen inputs (each
// cell the best trial at that pair of values, whatever the other inputs were) and in-sample vs
// out-of-sample scores as a scatter (points far under the diagonal are overfit). Plain canvas: two
// small static plots do not need a charting library.

import type { TrialRecord } from "../engines/types.js";
import { fmt, h } from "./dom.js";

const W = 300;
const H = 210;
const PAD = { l: 46, r: 8, t: 8, b: 30 };

/** Red (worst) through yellow to green (best). */
function heat(t: number): string {
  const x = Math.max(0, Math.min(1, t));
  const r = x < 0.5 ? 230 : Math.round(230 - (x - 0.5) * 2 * 170);
  const g = x < 0.5 ? Math.round(80 + x * 2 * 150) : 200;
  return `rgb(${r}, ${g}, 70)`;
}

function canvas(testid: string): { el: HTMLCanvasElement; g: CanvasRenderingContext2D } {
  const el = h("canvas", { width: W * 2, height: H * 2, "data-testid": testid });
  el.style.width = `${W}px`;
  el.style.height = `${H}px`;
  const g = el.getContext("2d")!;
  g.scale(2, 2);
  g.font = "10px system-ui, sans-serif";
  g.fillStyle = "#fff";
  g.fillRect(0, 0, W, H);
  return { el, g };
}

/** The heatmap of trials' in-sample scores over inputs `x` and `y`. */
export function heatmap(trials: readonly TrialRecord[], x: string, y: string): HTMLElement {
  const scored = trials.filter((t) => typeof t.is_score === "number" && !t.error);
  const xs = [...new Set(scored.map((t) => Number(t.params[x])))].sort((a, b) => a - b);
  const ys = [...new Set(scored.map((t) => Number(t.params[y])))].sort((a, b) => a - b);
  const best = new Map<string, number>();
  for (const t of scored) {
    const k = `${t.params[x]}|${t.params[y]}`;
    const v = t.is_score as number;
    if (!best.has(k) || v > best.get(k)!) best.set(k, v);
  }
  const vals = [...best.values()];
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const { el, g } = canvas("opt-heatmap");
  el.dataset.cells = String(best.size);
  const pw = W - PAD.l - PAD.r;
  const ph = H - PAD.t - PAD.b;
  const cw = pw / Math.max(1, xs.length);
  const ch = ph / Math.max(1, ys.length);
  for (const [k, v] of best) {
    const [a, b] = k.split("|").map(Number);
    const i = xs.indexOf(a);
    const j = ys.indexOf(b);
    g.fillStyle = heat(hi > lo ? (v - lo) / (hi - lo) : 1);
    g.fillRect(PAD.l + i * cw, PAD.t + ph - (j + 1) * ch, Math.max(1, cw - 0.5), Math.max(1, ch - 0.5));
  }
  g.fillStyle = "#555";
  g.textAlign = "center";
  g.fillText(`${x} (${fmt(xs[0])} … ${fmt(xs[xs.length - 1])})`, PAD.l + pw / 2, H - 8);
  g.save();
  g.translate(10, PAD.t + ph / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(`${y} (${fmt(ys[0])} … ${fmt(ys[ys.length - 1])})`, 0, 0);
  g.restore();
  return h(
    "figure",
    { class: "opt-chart" },
    el,
    h(
      "figcaption",
      { class: "muted" },
      `In-sample score by ${x} and ${y}: ${fmt(lo, 3)} (red) to ${fmt(hi, 3)} (green)`,
    ),
  );
}

/** In-sample vs out-of-sample scores, one point per trial scored on both. */
export function isOosScatter(trials: readonly TrialRecord[], bestIndex: number | null): HTMLElement | null {
  const pts = trials.filter((t) => typeof t.is_score === "number" && typeof t.oos_score === "number" && !t.error);
  if (pts.length < 2) return null;
  const xsv = pts.map((t) => t.is_score as number);
  const ysv = pts.map((t) => t.oos_score as number);
  const lo = Math.min(...xsv, ...ysv);
  const hi = Math.max(...xsv, ...ysv);
  const span = hi > lo ? hi - lo : 1;
  const { el, g } = canvas("opt-scatter");
  el.dataset.points = String(pts.length);
  const pw = W - PAD.l - PAD.r;
  const ph = H - PAD.t - PAD.b;
  const px = (v: number) => PAD.l + ((v - lo) / span) * pw;
  const py = (v: number) => PAD.t + ph - ((v - lo) / span) * ph;
  // the diagonal: out-of-sample as good as in-sample
  g.strokeStyle = "#c8ccd6";
  g.setLineDash([4, 3]);
  g.beginPath();
  g.moveTo(px(lo), py(lo));
  g.lineTo(px(hi), py(hi));
  g.stroke();
  g.setLineDash([]);
  for (const t of pts) {
    const best = t.index === bestIndex;
    g.fillStyle = best ? "#ff6d00" : "rgba(41, 98, 255, 0.7)";
    g.beginPath();
    g.arc(px(t.is_score as number), py(t.oos_score as number), best ? 4.5 : 3, 0, 2 * Math.PI);
    g.fill();
  }
  g.fillStyle = "#555";
  g.textAlign = "center";
  g.fillText(`in-sample score (${fmt(lo, 2)} … ${fmt(hi, 2)})`, PAD.l + pw / 2, H - 8);
  g.save();
  g.translate(10, PAD.t + ph / 2);
  g.rotate(-Math.PI / 2);
  g.fillText("out-of-sample score", 0, 0);
  g.restore();
  return h(
    "figure",
    { class: "opt-chart" },
    el,
    h(
      "figcaption",
      { class: "muted" },
      `${pts.length} trials; the best in orange; below the diagonal: worse out of sample`,
    ),
  );
}
