// The inputs panel: one control per declared input (result.inputs), grouped like TradingView's
// settings dialog; a change reports the override (keyed by title) and the app re-runs.

import type { InputRecord } from "../../../src/core/result.js";
import { h } from "./dom.js";

const SOURCES = ["open", "high", "low", "close", "hl2", "hlc3", "ohlc4", "hlcc4", "volume"];

function colorHex(v: unknown): string {
  if (typeof v === "string" && v.startsWith("#")) return v.slice(0, 7);
  if (typeof v === "number" && v === v) return "#" + (v >>> 8).toString(16).padStart(6, "0");
  return "#2962ff";
}

export function renderInputs(
  host: HTMLElement,
  inputs: readonly InputRecord[],
  onChange: (title: string, value: unknown) => void,
  onReset: () => void,
): void {
  host.replaceChildren();
  if (inputs.length === 0) {
    host.append(h("p", { class: "muted" }, "This script declares no inputs."));
    return;
  }
  const form = h("form", { class: "inputs", onsubmit: (e: Event) => e.preventDefault() });
  let group: string | undefined;
  for (const inp of inputs) {
    if (inp.group && inp.group !== group) {
      group = inp.group;
      form.append(h("h4", {}, group));
    }
    const id = `input-${inp.id}`;
    const control = inputControl(inp, id, (v) => onChange(inp.title, v));
    const row = h(
      "div",
      { class: "input-row", "data-title": inp.title, title: inp.tooltip ?? "" },
      h("label", { for: id }, inp.title),
      control,
    );
    form.append(row);
  }
  form.append(h("button", { type: "button", class: "link", onclick: () => onReset() }, "Reset to defaults"));
  host.append(form);
}

function inputControl(inp: InputRecord, id: string, set: (v: unknown) => void): HTMLElement {
  const value = inp.value ?? inp.default;
  if (inp.options?.length) {
    const sel = h("select", { id, onchange: () => set(inp.options![sel.selectedIndex]) });
    for (const o of inp.options) sel.append(h("option", { selected: o === value }, String(o)));
    return sel;
  }
  switch (inp.type) {
    case "int":
    case "float": {
      const el = h("input", {
        id,
        type: "number",
        value: String(value ?? ""),
        min: inp.min ?? undefined,
        max: inp.max ?? undefined,
        step: inp.step ?? (inp.type === "int" ? 1 : "any"),
        onchange: () => {
          const n = Number(el.value);
          if (el.value.trim() !== "" && Number.isFinite(n)) set(inp.type === "int" ? Math.round(n) : n);
        },
      });
      return el;
    }
    case "bool": {
      const el = h("input", { id, type: "checkbox", checked: value === true, onchange: () => set(el.checked) });
      return el;
    }
    case "source": {
      const sel = h("select", { id, onchange: () => set(sel.value) });
      for (const s of SOURCES) sel.append(h("option", { selected: s === value }, s));
      return sel;
    }
    case "color": {
      const el = h("input", { id, type: "color", value: colorHex(value), onchange: () => set(el.value) });
      return el;
    }
    default: {
      const el = h("input", {
        id,
        type: "text",
        value: value == null ? "" : String(value),
        onchange: () => set(el.value),
      });
      return el;
    }
  }
}
