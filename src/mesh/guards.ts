// Per-symbol size caps from config (MESH_LIMITS, JSON): {"BTCUSDT": {"max_order": 1,
// "max_position": 2}, "*": {...}}; a symbol without its own entry takes "*", and a missing cap is no
// cap. A bad MESH_LIMITS refuses every order (a typo must not lift the caps).

import { ApiError } from "../server/errors.js";
import type { MeshEnv } from "./bindings.js";

export interface SymbolLimits {
  max_order?: number;
  max_position?: number;
}

export function limitsFor(env: MeshEnv, symbol: string): SymbolLimits {
  const raw = env.MESH_LIMITS;
  if (typeof raw !== "string" || raw.trim() === "") return {};
  let table: Record<string, SymbolLimits>;
  try {
    table = JSON.parse(raw) as Record<string, SymbolLimits>;
    if (table === null || typeof table !== "object" || Array.isArray(table)) throw new Error("not an object");
  } catch {
    throw new ApiError(503, "CONFIG_INVALID", "MESH_LIMITS is not a JSON object of per-symbol limits");
  }
  return table[symbol] ?? table["*"] ?? {};
}

/** A coded refusal, or null when the order fits the caps. */
export function checkSize(
  limits: SymbolLimits,
  qty: number,
  position: number,
  signedQty: number,
): { code: "ORDER_TOO_LARGE" | "POSITION_LIMIT"; message: string } | null {
  if (limits.max_order !== undefined && qty > limits.max_order)
    return { code: "ORDER_TOO_LARGE", message: `order qty ${qty} exceeds max_order ${limits.max_order}` };
  const after = position + signedQty;
  if (
    limits.max_position !== undefined &&
    Math.abs(after) > limits.max_position &&
    Math.abs(after) > Math.abs(position)
  )
    return {
      code: "POSITION_LIMIT",
      message: `position would be ${after}, beyond max_position ${limits.max_position}`,
    };
  return null;
}
