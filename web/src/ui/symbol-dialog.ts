// The symbol-info dialog: ticker, time zone, session, tick size, currency and type of the chart's
// data (TradingView's symbol info). Runs on that data get it as syminfo; prices use its tick size.

import { type ChartSymbol, symbolProblem } from "../data/symbol.js";
import { h } from "./dom.js";

const TYPES = ["crypto", "forex", "stock", "futures", "index", "cfd", "fund", "bond", "economic"];

/** Opens the dialog on `current`; resolves with the edited symbol, or null when cancelled. */
export function editSymbol(current: ChartSymbol): Promise<ChartSymbol | null> {
  return new Promise((resolve) => {
    const field = (name: keyof ChartSymbol, attrs: Record<string, string> = {}) =>
      h("input", { name, value: String(current[name]), ...attrs });
    const ticker = field("ticker");
    const timezone = field("timezone", { placeholder: "Etc/UTC, America/New_York…" });
    const session = field("session", { placeholder: "24x7 or 0930-1600:23456" });
    const mintick = field("mintick", { type: "number", step: "any", min: "0" });
    const currency = field("currency");
    const type = h(
      "select",
      { name: "type" },
      ...TYPES.map((t) => h("option", { value: t, selected: t === current.type }, t)),
    );
    const error = h("p", { class: "error", "data-testid": "symbol-error" });
    const dialog = h("dialog", { class: "symbol-dialog", "data-testid": "symbol-dialog" });
    const done = (value: ChartSymbol | null) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const save = h("button", { type: "submit", class: "primary", "data-testid": "symbol-save" }, "Apply");
    const form = h(
      "form",
      { method: "dialog" },
      h("label", {}, "Ticker"),
      ticker,
      h("label", {}, "Time zone"),
      timezone,
      h("label", {}, "Session"),
      session,
      h("label", {}, "Tick size (mintick)"),
      mintick,
      h("label", {}, "Currency"),
      currency,
      h("label", {}, "Type"),
      type,
      error,
      h("div", { class: "actions" }, h("button", { type: "button", onclick: () => done(null) }, "Cancel"), save),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const next: ChartSymbol = {
        ticker: ticker.value.trim(),
        timezone: timezone.value.trim() || "Etc/UTC",
        session: session.value.trim() || "24x7",
        mintick: Number(mintick.value),
        currency: currency.value.trim().toUpperCase() || "USD",
        type: type.value,
      };
      const problem = symbolProblem(next);
      if (problem) {
        error.textContent = problem;
        return;
      }
      done(next);
    });
    dialog.addEventListener("cancel", () => done(null));
    dialog.append(h("h4", {}, "Symbol info"), form);
    document.body.append(dialog);
    dialog.showModal();
  });
}
