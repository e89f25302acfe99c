// The profiler view: run phases and per-line timings (with the profiler option), hottest first.

import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { fmt, h } from "./dom.js";

export function renderProfile(
  host: HTMLElement,
  result: PackedRunResult,
  source: string,
  onLine: (line: number) => void,
): void {
  host.replaceChildren();
  const p = result.profile;
  if (!p) {
    host.append(h("p", { class: "muted" }, "No profile in this result."));
    return;
  }
  host.append(
    h(
      "p",
      {},
      `${fmt(p.total_ms, 1)} ms total over ${fmt(p.bars, 0)} bars (${p.mode}): parse ${fmt(p.phases?.parse_ms, 1)} ms, check ${fmt(p.phases?.check_ms, 1)} ms, eval ${fmt(p.phases?.eval_ms, 1)} ms.`,
    ),
  );
  const lines = [...(p.lines ?? [])].sort((a, b) => b.ms - a.ms);
  if (!lines.length) {
    host.append(h("p", { class: "muted" }, "Per-line timings: tick “Profile” and run again."));
    return;
  }
  const src = source.split("\n");
  const t = h(
    "table",
    { class: "grid profile" },
    h("tr", {}, h("th", {}, "Line"), h("th", {}, "ms"), h("th", {}, "Runs"), h("th", {}, "%"), h("th", {}, "Source")),
  );
  for (const l of lines) {
    const bar = h("div", { class: "pct-bar" });
    bar.style.width = `${Math.min(100, l.pct)}%`;
    t.append(
      h(
        "tr",
        { class: "clickable", onclick: () => onLine(l.line) },
        h("td", {}, l.line),
        h("td", {}, fmt(l.ms, 2)),
        h("td", {}, fmt(l.execs, 0)),
        h("td", { class: "pct" }, bar, h("span", {}, fmt(l.pct, 1))),
        h("td", { class: "code" }, (src[l.line - 1] ?? "").trim()),
      ),
    );
  }
  host.append(t);
}
