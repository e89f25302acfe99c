// Alerts, Pine logs and run diagnostics in one panel (long lists are cut to their last rows).

import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { fmtTime, h } from "./dom.js";

const MAX_ROWS = 500;

export function renderLogs(host: HTMLElement, result: PackedRunResult): void {
  host.replaceChildren();
  const alerts = result.alerts ?? [];
  const logs = result.logs ?? [];
  const conds = result.alert_conditions ?? [];
  if (result.error) {
    host.append(
      h(
        "div",
        { class: "error-box" },
        `${result.error_kind ?? "error"} error${result.error_bar !== undefined ? ` on bar ${result.error_bar}` : ""}: ${result.error}`,
      ),
    );
  }
  host.append(h("h4", {}, `Alerts (${alerts.length})`));
  if (alerts.length) {
    const t = h(
      "table",
      { class: "grid" },
      h("tr", {}, h("th", {}, "Bar"), h("th", {}, "Time"), h("th", {}, "Source"), h("th", { class: "msg" }, "Message")),
    );
    for (const a of alerts.slice(-MAX_ROWS))
      t.append(
        h(
          "tr",
          {},
          h("td", {}, a.bar_index),
          h("td", {}, fmtTime(a.time)),
          h("td", {}, a.title ? `${a.source}: ${a.title}` : a.source),
          h("td", { class: "msg" }, a.message),
        ),
      );
    host.append(t);
  } else
    host.append(
      h(
        "p",
        { class: "muted" },
        conds.length ? `${conds.length} alertcondition() declared, none fired as alert() calls.` : "No alerts.",
      ),
    );
  host.append(h("h4", {}, `Logs (${logs.length})`));
  if (logs.length) {
    const t = h(
      "table",
      { class: "grid" },
      h("tr", {}, h("th", {}, "Level"), h("th", {}, "Bar"), h("th", {}, "Time"), h("th", { class: "msg" }, "Message")),
    );
    for (const l of logs.slice(-MAX_ROWS))
      t.append(
        h(
          "tr",
          { class: `log-${l.level}` },
          h("td", {}, l.level),
          h("td", {}, l.bar_index),
          h("td", {}, fmtTime(l.time)),
          h("td", { class: "msg" }, l.message),
        ),
      );
    if (logs.length > MAX_ROWS) host.append(h("p", { class: "muted" }, `Showing the last ${MAX_ROWS}.`));
    host.append(t);
  } else host.append(h("p", { class: "muted" }, "No log lines."));
}
