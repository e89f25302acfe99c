// Paints the result's drawings (line, label, box, polyline, linefill; tables go to an HTML overlay)
// on the price pane. Records are those of src/builtins/drawing/result.ts, read by field name.

import { anyColor } from "./colors.js";
import type { PaneGeometry } from "./canvas-layer.js";

type Rec = Record<string, unknown>;

const num = (r: Rec, ...keys: string[]): number => {
  for (const k of keys) {
    const v = r[k];
    if (typeof v === "number" && v === v) return v;
  }
  return NaN;
};
const str = (r: Rec, ...keys: string[]): string => {
  for (const k of keys) if (typeof r[k] === "string") return r[k] as string;
  return "";
};
const bare = (s: string): string => s.slice(s.lastIndexOf(".") + 1).toLowerCase();

export function drawingKind(d: Rec): string {
  return bare(str(d, "type", "kind", "object"));
}

/** Bar index of a drawing x coordinate (`xloc.bar_time` x values are times, matched to bars). */
export function makeXResolver(times: Float64Array): (x: number, xloc: string) => number {
  return (x, xloc) => {
    if (bare(xloc) !== "bar_time") return x;
    let lo = 0;
    let hi = times.length - 1;
    if (hi < 0) return NaN;
    if (x >= times[hi]) return hi + (x - times[hi]) / Math.max(1, times[hi] - (times[hi - 1] ?? times[hi] - 1));
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function dash(ctx: CanvasRenderingContext2D, style: string, width: number): void {
  const s = bare(style);
  ctx.setLineDash(s.includes("dash") ? [6 * width, 4 * width] : s.includes("dot") ? [width, 3 * width] : []);
}

/** Paints every drawing in view; returns how many of each kind were painted. */
export function paintDrawings(
  g: PaneGeometry,
  drawings: readonly Rec[],
  xOf: (x: number, xloc: string) => number,
): Record<string, number> {
  const { ctx } = g;
  const painted: Record<string, number> = {};
  const count = (kind: string, ok: boolean) => {
    if (ok) painted[kind] = (painted[kind] ?? 0) + 1;
  };
  const lines = new Map<unknown, Rec>();
  for (const d of drawings) if (drawingKind(d) === "line") lines.set(d.id, d);
  // linefills first, so the lines they join are drawn over them
  for (const d of drawings) {
    if (drawingKind(d) !== "linefill") continue;
    const a = lines.get(d.line1);
    const b = lines.get(d.line2);
    if (!a || !b) continue;
    const pts = [
      [xOf(num(a, "x1"), str(a, "xloc")), num(a, "y1")],
      [xOf(num(a, "x2"), str(a, "xloc")), num(a, "y2")],
      [xOf(num(b, "x2"), str(b, "xloc")), num(b, "y2")],
      [xOf(num(b, "x1"), str(b, "xloc")), num(b, "y1")],
    ].map(([i, p]) => [g.x(i), g.y(p)]);
    if (pts.some(([x, y]) => x === null || y === null)) continue;
    ctx.save();
    ctx.fillStyle = anyColor(d.color) ?? "rgba(41, 98, 255, 0.15)";
    ctx.beginPath();
    pts.forEach(([x, y], k) => {
      if (k) ctx.lineTo(x!, y!);
      else ctx.moveTo(x!, y!);
    });
    ctx.closePath();
    ctx.fill();
    ctx.restore();
    count("linefill", true);
  }
  for (const d of drawings) {
    const kind = drawingKind(d);
    const xloc = str(d, "xloc");
    ctx.save();
    try {
      if (kind === "line") count(kind, paintLine(g, d, xOf(num(d, "x1"), xloc), xOf(num(d, "x2"), xloc)));
      else if (kind === "box") count(kind, paintBox(g, d, xOf(num(d, "left"), xloc), xOf(num(d, "right"), xloc)));
      else if (kind === "label") count(kind, paintLabel(g, d, xOf(num(d, "x"), xloc)));
      else if (kind === "polyline") count(kind, paintPolyline(g, d, xOf, xloc));
    } finally {
      ctx.restore();
    }
  }
  return painted;
}

function paintLine(g: PaneGeometry, d: Rec, i1: number, i2: number): boolean {
  let x1 = g.x(i1);
  let x2 = g.x(i2);
  let y1 = g.y(num(d, "y1"));
  let y2 = g.y(num(d, "y2"));
  if (x1 === null || x2 === null || y1 === null || y2 === null) return false;
  const ext = bare(str(d, "extend"));
  const slope = x2 !== x1 ? (y2 - y1) / (x2 - x1) : 0;
  if ((ext === "right" || ext === "both") && x2 !== x1) {
    const nx = x2 > x1 ? g.width : 0;
    y2 = y2 + slope * (nx - x2);
    x2 = nx;
  }
  if ((ext === "left" || ext === "both") && x2 !== x1) {
    const nx = x2 > x1 ? 0 : g.width;
    y1 = y1 + slope * (nx - x1);
    x1 = nx;
  }
  const width = num(d, "width") || 1;
  g.ctx.strokeStyle = anyColor(d.color) ?? "#2962ff";
  g.ctx.lineWidth = width;
  dash(g.ctx, str(d, "style"), width);
  g.ctx.beginPath();
  g.ctx.moveTo(x1, y1);
  g.ctx.lineTo(x2, y2);
  g.ctx.stroke();
  return true;
}

function paintBox(g: PaneGeometry, d: Rec, iL: number, iR: number): boolean {
  const xl = g.x(iL);
  let xr = g.x(iR);
  const yt = g.y(num(d, "top"));
  const yb = g.y(num(d, "bottom"));
  if (xl === null || xr === null || yt === null || yb === null) return false;
  const ext = bare(str(d, "extend"));
  if (ext === "right" || ext === "both") xr = g.width;
  const bg = anyColor(d.bgcolor);
  if (bg) {
    g.ctx.fillStyle = bg;
    g.ctx.fillRect(xl, yt, xr - xl, yb - yt);
  }
  const border = anyColor(d.border_color);
  const bw = num(d, "border_width");
  if (border && bw !== 0) {
    g.ctx.strokeStyle = border;
    g.ctx.lineWidth = bw || 1;
    dash(g.ctx, str(d, "border_style"), bw || 1);
    g.ctx.strokeRect(xl, yt, xr - xl, yb - yt);
  }
  const text = str(d, "text");
  if (text) {
    g.ctx.fillStyle = anyColor(d.text_color) ?? "#131722";
    g.ctx.font = "11px sans-serif";
    g.ctx.textAlign = "center";
    g.ctx.textBaseline = "middle";
    g.ctx.fillText(text, (xl + xr) / 2, (yt + yb) / 2);
  }
  return true;
}

function paintLabel(g: PaneGeometry, d: Rec, i: number): boolean {
  const x = g.x(i);
  const yloc = bare(str(d, "yloc"));
  let y = g.y(num(d, "y"));
  if (yloc === "abovebar") y = 20;
  if (yloc === "belowbar") y = g.height - 20;
  if (x === null || y === null) return false;
  const text = str(d, "text");
  const style = bare(str(d, "style"));
  const bg = anyColor(d.color) ?? "#2962ff";
  const fg = anyColor(d.textcolor) ?? "#ffffff";
  const ctx = g.ctx;
  ctx.font = "11px sans-serif";
  const lines = text.split("\n");
  const w = Math.max(8, ...lines.map((l) => ctx.measureText(l).width)) + 10;
  const h = lines.length * 14 + 6;
  const down = style.includes("down") || style === "";
  const none = style === "none" || style.includes("text_outline");
  const top = style.includes("up") ? y + 6 : style.includes("center") ? y - h / 2 : down ? y - h - 6 : y - h / 2;
  if (!none) {
    ctx.fillStyle = bg;
    ctx.beginPath();
    ctx.roundRect(x - w / 2, top, w, h, 3);
    ctx.fill();
    // the pointer towards the anchor
    ctx.beginPath();
    if (style.includes("up")) {
      ctx.moveTo(x - 5, top);
      ctx.lineTo(x, y);
      ctx.lineTo(x + 5, top);
    } else if (down) {
      ctx.moveTo(x - 5, top + h);
      ctx.lineTo(x, y);
      ctx.lineTo(x + 5, top + h);
    }
    ctx.fill();
  }
  ctx.fillStyle = none ? (anyColor(d.textcolor) ?? bg) : fg;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  lines.forEach((l, k) => {
    ctx.fillText(l, x, top + 4 + k * 14);
  });
  return true;
}

function paintPolyline(g: PaneGeometry, d: Rec, xOf: (x: number, xloc: string) => number, xloc: string): boolean {
  const pts = Array.isArray(d.points) ? (d.points as Rec[]) : [];
  if (pts.length < 2) return false;
  const useTime = bare(xloc) === "bar_time";
  const ctx = g.ctx;
  ctx.beginPath();
  let started = false;
  for (const p of pts) {
    const x = g.x(useTime ? xOf(num(p, "time"), xloc) : num(p, "index", "bar_index"));
    const y = g.y(num(p, "price"));
    if (x === null || y === null) continue;
    if (started) ctx.lineTo(x, y);
    else ctx.moveTo(x, y);
    started = true;
  }
  if (d.closed) ctx.closePath();
  const fill = anyColor(d.fill_color);
  if (fill) {
    ctx.fillStyle = fill;
    ctx.fill();
  }
  ctx.strokeStyle = anyColor(d.line_color) ?? "#2962ff";
  ctx.lineWidth = num(d, "line_width") || 1;
  ctx.stroke();
  return started;
}

/** Pine's text sizes in px (size.auto reads as normal in a table cell). */
const TEXT_PX: Record<string, number> = { tiny: 8, small: 10, normal: 12, large: 16, huge: 22 };

/**
 * Tables become positioned HTML grids over the chart (they are screen-anchored in Pine): frame and
 * cell borders, merged cells, per-cell colours, alignment and text size. Returns how many were drawn.
 */
export function renderTables(host: HTMLElement, drawings: readonly Rec[]): number {
  host.replaceChildren();
  let drawn = 0;
  for (const d of drawings) {
    if (drawingKind(d) !== "table") continue;
    const el = document.createElement("table");
    el.className = "pine-table " + bare(str(d, "position") || "top_right").replace("_", "-");
    const bg = anyColor(d.bgcolor);
    if (bg) el.style.background = bg;
    const frame = anyColor(d.frame_color);
    const frameWidth = num(d, "frame_width");
    if (frame && frameWidth > 0) el.style.outline = `${frameWidth}px solid ${frame}`;
    const border = anyColor(d.border_color);
    const borderWidth = num(d, "border_width");
    const cellBorder = border && borderWidth > 0 ? `${borderWidth}px solid ${border}` : "none";
    const cells = Array.isArray(d.cells) ? (d.cells as Rec[]) : [];
    const rows = num(d, "rows") || 1 + Math.max(0, ...cells.map((c) => num(c, "row") || 0));
    const cols = num(d, "columns") || 1 + Math.max(0, ...cells.map((c) => num(c, "column") || 0));
    const grid: (Rec | undefined)[][] = Array.from({ length: rows }, () => new Array(cols));
    for (const c of cells) {
      const r = num(c, "row") || 0;
      const k = num(c, "column") || 0;
      if (r < rows && k < cols) grid[r]![k] = c;
    }
    // merged ranges: the top-left cell spans them, the others are not emitted
    const span = new Map<string, { rows: number; cols: number }>();
    const covered = new Set<string>();
    for (const m of Array.isArray(d.merged) ? (d.merged as Rec[]) : []) {
      const c0 = num(m, "start_column"),
        r0 = num(m, "start_row"),
        c1 = num(m, "end_column"),
        r1 = num(m, "end_row");
      span.set(`${r0},${c0}`, { rows: r1 - r0 + 1, cols: c1 - c0 + 1 });
      for (let r = r0; r <= r1; r++) for (let k = c0; k <= c1; k++) if (r !== r0 || k !== c0) covered.add(`${r},${k}`);
    }
    for (let r = 0; r < rows; r++) {
      const tr = el.insertRow();
      for (let k = 0; k < cols; k++) {
        if (covered.has(`${r},${k}`)) continue;
        const td = tr.insertCell();
        td.style.border = cellBorder;
        const sp = span.get(`${r},${k}`);
        if (sp) {
          td.rowSpan = sp.rows;
          td.colSpan = sp.cols;
        }
        const c = grid[r]![k];
        if (!c) continue;
        td.textContent = str(c, "text");
        const fg = anyColor(c.text_color);
        const cbg = anyColor(c.bgcolor);
        if (fg) td.style.color = fg;
        if (cbg) td.style.background = cbg;
        td.style.textAlign = bare(str(c, "text_halign")) || "center";
        td.style.verticalAlign = { top: "top", bottom: "bottom" }[bare(str(c, "text_valign"))] ?? "middle";
        const px = TEXT_PX[bare(str(c, "text_size"))];
        if (px) td.style.fontSize = `${px}px`;
        if (str(c, "tooltip")) td.title = str(c, "tooltip");
      }
    }
    host.append(el);
    drawn++;
  }
  return drawn;
}
