// Terminal output of resinctl: colours by picocolors (off with --no-color, NO_COLOR=1, TERM=dumb
// or no TTY), tables by cli-table3 (src/cli/table.ts), compact numbers by Intl. Ours, because the
// spec fixes their exact wording and no library writes it: the error card, byte sizes in SI or
// binary units, durations as "ms, s, m ss, h mm", and the edit distance behind "did you mean".

import { createColors } from "picocolors";
import { renderTable } from "../cli/table.js";

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  /** A rich terminal: colour on and stdout is a TTY (footers, progress). */
  rich: boolean;
  write: (text: string) => void;
  writeErr: (text: string) => void;
}

export type Style = "bold" | "dim" | "red" | "green" | "yellow" | "blue" | "cyan" | "gray" | "inverse";

const plain = createColors(false);
const coloured = createColors(true);

export function paint(o: Pick<OutputOptions, "color">, style: Style, text: string): string {
  return (o.color ? coloured : plain)[style](text);
}

export function colorEnabled(argv: string[], env: Record<string, string | undefined>, isTty: boolean): boolean {
  if (argv.includes("--no-color")) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTty;
}

const COMPACT = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** 1234 -> 1.2K, 3_400_000 -> 3.4M, 5.6e9 -> 5.6B (Intl's compact notation). */
export function compactNumber(n: number): string {
  return COMPACT.format(n);
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

const STATUS_COLORS: Record<string, Style> = {
  ok: "green",
  up: "green",
  running: "green",
  current: "green",
  active: "green",
  on: "red",
  error: "red",
  down: "red",
  failed: "red",
  off: "gray",
  skipped: "yellow",
  warning: "yellow",
  stopped: "gray",
};

/** A table (cli-table3 via renderTable): zebra rows, numbers right-aligned and compact, status words coloured. */
export function table(o: Pick<OutputOptions, "color">, head: string[], rows: (string | number)[][]): string {
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number"));
  const cells = rows.map((r, k) =>
    r.map((c) => {
      const text = typeof c === "number" ? compactNumber(c) : c;
      const st = STATUS_COLORS[text.toLowerCase()];
      const shown = st ? paint(o, st, text) : text;
      return k % 2 === 1 ? paint(o, "dim", shown) : shown;
    }),
  );
  return renderTable(
    head.map((h) => paint(o, "bold", h)),
    cells,
    numeric.map((n) => (n ? "right" : "left")),
  );
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
