// A default search space from a strategy's declared inputs (result.inputs): every int/float input
// with both minval and maxval becomes an axis named by the input's title (overrides are keyed by title).

import type { InputRecord } from "../core/result.js";
import type { ParamSpec } from "./space.js";

export function spaceFromInputs(inputs: readonly InputRecord[]): ParamSpec[] {
  const out: ParamSpec[] = [];
  const seen = new Set<string>();
  for (const inp of inputs) {
    const kind = inp.type === "int" ? "int" : inp.type === "float" ? "float" : null;
    if (!kind || seen.has(inp.title)) continue;
    if (typeof inp.min !== "number" || typeof inp.max !== "number" || !(inp.min < inp.max)) continue;
    if (!Number.isFinite(inp.min) || !Number.isFinite(inp.max)) continue;
    const spec: ParamSpec = { name: inp.title, kind, min: inp.min, max: inp.max };
    if (typeof inp.step === "number" && inp.step > 0) spec.step = inp.step;
    seen.add(inp.title);
    out.push(spec);
  }
  return out;
}
