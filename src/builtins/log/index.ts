// log.info / log.warning / log.error: Pine Logs lines. With extra arguments the first one is a
// str.format pattern.
import { functions as strFunctions } from "../str/index.js";
import type { BuiltinImpl, BuiltinTable, CallSite, ExecContext } from "../types.js";

/** Minimal `{0}` substitution, used only while the str module has no str.format. */
function fallbackFormat(fmt: string, values: unknown[]): string {
  return fmt.replace(/\{(\d+)\}/g, (m, i) => {
    const x = values[Number(i)];
    if (x === undefined) return m;
    if (x === null || (typeof x === "number" && x !== x)) return "NaN";
    return String(x);
  });
}

function format(ctx: ExecContext, args: unknown[], site: CallSite): string {
  const fmt = args[0];
  if (args.length <= 1) return fmt === null || fmt === undefined ? "" : String(fmt);
  const strFormat = strFunctions["str.format"];
  if (strFormat) return String(strFormat.impl(ctx, args, site) ?? "");
  return fallbackFormat(String(fmt ?? ""), args.slice(1));
}

// Pine Logs shows messages right-trimmed: str.repeat("Hello ", 3) is logged as "Hello Hello Hello"
// (conformance logs/str_test_001_str).
const logger =
  (level: "info" | "warning" | "error"): BuiltinImpl =>
  (ctx, args, site) => {
    ctx.log(level, format(ctx, args, site).trimEnd());
  };

export const functions: BuiltinTable = {
  "log.info": { name: "log.info", impl: logger("info") },
  "log.warning": { name: "log.warning", impl: logger("warning") },
  "log.error": { name: "log.error", impl: logger("error") },
};
