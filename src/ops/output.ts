// Terminal output of resinctl: colours (off with --no-color, NO_COLOR=1, TERM=dumb or no TTY),
// error cards, tables, compact numbers, byte sizes and durations.

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  /** A rich terminal: colour on and stdout is a TTY (footers, progress). */
  rich: boolean;
  write: (text: string) => void;
  writeErr: (text: string) => void;
}

const CODES: Record<string, [number, number]> = {
  bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], cyan: [36, 39], gray: [90, 39], inverse: [7, 27],
};

export type Style = keyof typeof CODES;

export function paint(o: Pick<OutputOptions, "color">, style: Style, text: string): string {
  if (!o.color) return text;
  const [a, b] = CODES[style] as [number, number];
  return `\u001b[${a}m${text}\u001b[${b}m`;
}

export function colorEnabled(argv: string[], env: Record<string, string | undefined>, isTty: boolean): boolean {
  if (argv.includes("--no-color")) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTty;
}

/** 1234 -> 1.2K, 3_400_000 -> 3.4M, 5.6e9 -> 5.6B. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  for (const [div, suffix] of [[1e9, "B"], [1e6, "M"], [1e3, "K"]] as const) {
    if (abs >= div) return `${Number((n / div).toFixed(1))}${suffix}`;
  }
  return String(Number(n.toFixed(2)));
}

/** SI (kB = 1000) or binary (KiB = 1024) byte sizes. */
export function formatBytes(bytes: number, binary = false): string {
  const base = binary ? 1024 : 1000;
  const units = binary ? ["B", "KiB", "MiB", "GiB", "TiB"] : ["B", "kB", "MB", "GB", "TB"];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= base && u < units.length - 1) {
    v /= base;
    u++;
  }
  return u === 0 ? `${v} B` : `${Number(v.toFixed(1))} ${units[u]}`;
}

/** ms, s, m ss, h mm. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

const STATUS_COLORS: Record<string, Style> = { ok: "green", up: "green", running: "green", current: "green", active: "green", on: "red", error: "red", down: "red", failed: "red", off: "gray", skipped: "yellow", warning: "yellow", stopped: "gray" };

/** A table: zebra rows, numbers right-aligned, status words coloured. */
export function table(o: Pick<OutputOptions, "color">, head: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === "number" ? compactNumber(c) : c)));
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number"));
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const fmtRow = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number))).join("  ");
  const lines = [paint(o, "bold", fmtRow(head))];
  cells.forEach((r, k) => {
    let line = r.map((c, i) => {
      const padded = numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number);
      const st = STATUS_COLORS[c.toLowerCase()];
      return st ? paint(o, st, padded) : padded;
    }).join("  ");
    if (k % 2 === 1) line = paint(o, "dim", line);
    lines.push(line);
  });
  return lines.join("\n");
}

export interface CardError {
  code: string;
  message: string;
  hint?: string;
  suggestions?: string[];
}

/** The error card: a [code] badge, the message, hints and suggestions. */
export function errorCard(o: Pick<OutputOptions, "color">, e: CardError): string {
  const lines = [`${paint(o, "red", paint(o, "inverse", ` [${e.code}] `))} ${paint(o, "bold", e.message)}`];
  if (e.hint) lines.push(`  ${paint(o, "yellow", "hint:")} ${e.hint}`);
  if (e.suggestions?.length) {
    lines.push(`  ${paint(o, "cyan", "try:")}`);
    for (const s of e.suggestions) lines.push(`    ${s}`);
  }
  return lines.join("\n");
}

/** Levenshtein distance (for "did you mean"). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] as number;
      prev[j] = Math.min((prev[j] as number) + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length] as number;
}
