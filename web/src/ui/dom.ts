// A tiny element builder: h("div", {class: "x", onclick: f}, child, "text").

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v as EventListener);
    else if (k in el && k !== "list" && k !== "type" && typeof v !== "function")
      (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children)
    if (c !== null && c !== undefined && c !== false) el.append(typeof c === "number" ? String(c) : c);
  return el;
}

/** One formatter per (min, max) decimals: toLocaleString builds a new one on every call (~6 µs a cell). */
const formatters = new Map<number, Intl.NumberFormat>();
function formatter(min: number, max: number): Intl.NumberFormat {
  const key = min * 100 + max;
  let f = formatters.get(key);
  if (!f)
    formatters.set(
      key,
      (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max })),
    );
  return f;
}

/** Numbers for tables: fixed decimals, thousands separators, "—" for na. */
export function fmt(v: unknown, digits = 2): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return v !== v ? "—" : v > 0 ? "∞" : "-∞";
    return formatter(Number.isInteger(v) ? 0 : digits, digits).format(v);
  }
  return String(v);
}

/** A parameter value as the inputs panel would take it: no padding zeros, no separators. */
export function fmtParam(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(Math.round(v * 1e6) / 1e6) : fmt(v);
  return v === null || v === undefined ? "—" : String(v);
}

export function fmtTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const iso = new Date(ms).toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 16).replace("T", " ");
}
