// The Properties tab (TradingView's strategy Properties): every strategy() setting of the backtest,
// showing the script's own value, with an override per field that the next run takes
// (RuntimeOptions.broker). The result says which overrides the run applied
// (meta.strategy_overrides); an engine that cannot take them (HTTP, edge) is named as such.

import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { DEFAULT_SETTINGS, type StrategySettings } from "../../../src/strategy/settings.js";
import { fmtParam, h } from "./dom.js";

type Kind = "number" | "int" | "bool" | { choices: string[] };

interface Property {
  /** strategy() parameter name (the override's key). */
  name: string;
  label: string;
  kind: Kind;
  /** Where TradingView's default lives when the script does not set it. */
  setting: keyof StrategySettings;
  group: string;
}

export const PROPERTIES: readonly Property[] = [
  { name: "initial_capital", label: "Initial capital", kind: "number", setting: "initialCapital", group: "Capital" },
  {
    name: "default_qty_type",
    label: "Order size type",
    kind: { choices: ["fixed", "cash", "percent_of_equity"] },
    setting: "defaultQtyType",
    group: "Capital",
  },
  { name: "default_qty_value", label: "Order size", kind: "number", setting: "defaultQtyValue", group: "Capital" },
  { name: "pyramiding", label: "Pyramiding", kind: "int", setting: "pyramiding", group: "Capital" },
  {
    name: "margin_long",
    label: "Margin for long positions %",
    kind: "number",
    setting: "marginLong",
    group: "Capital",
  },
  {
    name: "margin_short",
    label: "Margin for short positions %",
    kind: "number",
    setting: "marginShort",
    group: "Capital",
  },
  {
    name: "commission_type",
    label: "Commission type",
    kind: { choices: ["percent", "cash_per_contract", "cash_per_order"] },
    setting: "commissionType",
    group: "Costs",
  },
  { name: "commission_value", label: "Commission", kind: "number", setting: "commissionValue", group: "Costs" },
  { name: "slippage", label: "Slippage (ticks)", kind: "int", setting: "slippage", group: "Costs" },
  {
    name: "backtest_fill_limits_assumption",
    label: "Verify price for limit orders (ticks)",
    kind: "int",
    setting: "backtestFillLimitsAssumption",
    group: "Fills",
  },
  {
    name: "process_orders_on_close",
    label: "Fill orders on bar close",
    kind: "bool",
    setting: "processOrdersOnClose",
    group: "Fills",
  },
  {
    name: "calc_on_order_fills",
    label: "Recalculate after order is filled",
    kind: "bool",
    setting: "calcOnOrderFills",
    group: "Recalculate",
  },
  {
    name: "calc_on_every_tick",
    label: "Recalculate on every tick",
    kind: "bool",
    setting: "calcOnEveryTick",
    group: "Recalculate",
  },
  {
    name: "fill_orders_on_standard_ohlc",
    label: "Fill orders on standard OHLC",
    kind: "bool",
    setting: "fillOrdersOnStandardOhlc",
    group: "Fills",
  },
  {
    name: "close_entries_rule",
    label: "Close entries rule",
    kind: { choices: ["FIFO", "ANY"] },
    setting: "closeEntriesRule",
    group: "Fills",
  },
  { name: "risk_free_rate", label: "Risk-free rate %", kind: "number", setting: "riskFreeRate", group: "Report" },
];

/** "strategy.percent_of_equity" -> "percent_of_equity" (the script's args carry either form). */
function bare(v: unknown): unknown {
  return typeof v === "string" && v.startsWith("strategy.") ? v.slice(v.lastIndexOf(".") + 1) : v;
}

/** The value the script itself runs with: its strategy() argument, else TradingView's default. */
export function scriptValue(result: PackedRunResult, p: Property): unknown {
  const declared = result.meta?.[p.name];
  return declared !== undefined && declared !== null ? bare(declared) : DEFAULT_SETTINGS[p.setting];
}

/**
 * Renders the tab. `overrides` are the current ones, for display; `onChange` gets the change of one
 * field (undefined: drop its override, as a field set back to empty or to the script's value does) or,
 * on reset, null. The owner applies it to its own current overrides: a second edit made before the
 * first one's run re-renders the tab must not start again from this render's set.
 */
export function renderProperties(
  host: HTMLElement,
  result: PackedRunResult,
  overrides: Record<string, unknown>,
  engineTakesThem: boolean,
  onChange: (change: { name: string; value: unknown } | null) => void,
): void {
  host.replaceChildren();
  if (result.script_type !== "strategy") {
    host.append(h("p", { class: "muted" }, "Properties are the settings of a strategy() backtest."));
    return;
  }
  const set = (name: string, v: unknown, own: unknown) => onChange({ name, value: v === own ? undefined : v });
  const form = h("form", { class: "inputs", onsubmit: (e: Event) => e.preventDefault() });
  let group = "";
  for (const p of PROPERTIES) {
    if (p.group !== group) form.append(h("h4", {}, (group = p.group)));
    const own = scriptValue(result, p);
    const has = p.name in overrides;
    const current = has ? overrides[p.name] : own;
    let control: HTMLElement;
    if (p.kind === "bool") {
      const el = h("input", { type: "checkbox", name: p.name, checked: current === true });
      el.addEventListener("change", () => set(p.name, el.checked, own));
      control = el;
    } else if (typeof p.kind === "object") {
      const el = h(
        "select",
        { name: p.name },
        ...p.kind.choices.map((c) => h("option", { value: c, selected: c === current }, c)),
      );
      el.addEventListener("change", () => set(p.name, el.value, own));
      control = el;
    } else {
      const el = h("input", {
        type: "number",
        name: p.name,
        step: p.kind === "int" ? "1" : "any",
        value: has ? fmtParam(current) : "",
        placeholder: fmtParam(own),
      });
      el.addEventListener("change", () => {
        const v = el.value === "" ? undefined : Number(el.value);
        set(
          p.name,
          v !== undefined && (Number.isNaN(v) || (p.kind === "int" && !Number.isInteger(v))) ? undefined : v,
          own,
        );
      });
      control = el;
    }
    form.append(
      h(
        "div",
        { class: `input-row${has ? " overridden" : ""}`, "data-property": p.name, title: `script: ${fmtParam(own)}` },
        h("label", {}, p.label),
        control,
      ),
    );
  }
  const applied = (result.meta?.strategy_overrides ?? {}) as Record<string, { script: unknown; used: unknown }>;
  const names = Object.keys(applied);
  // the script's value, or the default it runs with when its strategy() leaves the setting out
  const ownValue = (k: string) => {
    const p = PROPERTIES.find((q) => q.name === k);
    return p ? scriptValue(result, p) : bare(applied[k].script);
  };
  const pending = Object.keys(overrides);
  const note =
    pending.length && !engineTakesThem
      ? "This engine runs the script's own strategy() settings: switch to In-browser to apply Properties."
      : names.length
        ? `Applied in this run: ${names.map((k) => `${k} ${fmtParam(ownValue(k))} → ${fmtParam(bare(applied[k].used))}`).join(", ")}`
        : "The script's own strategy() settings (no overrides).";
  host.append(
    h("p", { class: "muted", "data-testid": "properties-applied" }, note),
    form,
    h("button", { type: "button", class: "link", onclick: () => onChange(null) }, "Reset to the script's settings"),
  );
}
