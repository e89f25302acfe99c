// /optimize's answer written as JSON text with the winner's full results spliced in as the text their
// threads wrote (engine.ts evaluateJobJson). A full result at 20k bars is ~600 KB of JSON (its equity
// series and trades); cloned back to the server's main thread as objects and stringified there, it cost
// that thread a structured-clone read of the whole graph, a JSON.stringify of it and the garbage of both.
// The study passes the text through untouched in a JsonRun (a symbol-keyed field: the driver's
// `{ events, ...result }` copies it, JSON.stringify skips it), and the answer keeps its key order:
// best_result and best_results are the study result's last keys (driver.ts).

import type { BestResult, OptimizeResult } from "../optimize/index.js";

const RUN_JSON = Symbol("resin.runJson");

/** A full run's result held as its JSON text. */
export interface JsonRun {
  [RUN_JSON]: string;
}

/** Wraps a result's JSON text where the study expects the result (the study only passes it on). */
export function jsonRun(text: string): BestResult {
  return { [RUN_JSON]: text } as unknown as BestResult;
}

/** A value as JSON, a JsonRun as the text it holds. */
function valueJson(v: unknown): string {
  const raw = v !== null && typeof v === "object" ? (v as Partial<JsonRun>)[RUN_JSON] : undefined;
  return raw ?? JSON.stringify(v);
}

/**
 * `{status: "success", ...result}` as JSON text, the same text JSON.stringify makes of it once the
 * full results hold their objects again.
 */
export function optimizeAnswerJson(result: OptimizeResult): string {
  const { best_result, best_results, ...rest } = result;
  const head = JSON.stringify({ status: "success", ...rest });
  let tail = "";
  if ("best_result" in result && best_result !== undefined) tail += `,"best_result":${valueJson(best_result)}`;
  if ("best_results" in result && best_results !== undefined) {
    const sets = best_results?.map(({ result: run, ...set }) => {
      const meta = JSON.stringify(set);
      return `${meta.slice(0, -1)}${meta.length > 2 ? "," : ""}"result":${valueJson(run)}}`;
    });
    tail += `,"best_results":${sets ? `[${sets.join(",")}]` : "null"}`;
  }
  return `${head.slice(0, -1)}${tail}}`;
}
