// /optimize's answer written as JSON with the winner's full results spliced in as the JSON their
// threads wrote (engine.ts evaluateJobJson). A full result at 20k bars is ~600 KB of JSON (its equity
// series and trades); cloned back to the server's main thread as objects and stringified there, it cost
// that thread a structured-clone read of the whole graph, a JSON.stringify of it and the garbage of both.
// The study passes the JSON through untouched in a JsonRun (a symbol-keyed field: the driver's
// `{ events, ...result }` copies it, JSON.stringify skips it), and the answer keeps its key order:
// best_result and best_results are the study result's last keys (driver.ts). A pool thread sends the
// JSON as UTF-8 bytes (engine.ts evaluateJobJsonBytes); the answer is then bytes too, so the main
// thread holds neither the ~600 KB text nor the answer's text around it (large strings it would
// collect once a study), and the host writes the bytes as they are.

import type { BestResult, OptimizeResult } from "../optimize/index.js";

const RUN_JSON = Symbol("resin.runJson");

/** A full run's result held as its JSON: text, or that text's UTF-8 bytes. */
export interface JsonRun {
  [RUN_JSON]: string | Uint8Array;
}

/** Wraps a result's JSON (text or its UTF-8 bytes) where the study expects the result (the study only passes it on). */
export function jsonRun(json: string | Uint8Array): BestResult {
  return { [RUN_JSON]: json } as unknown as BestResult;
}

/** A value as JSON, a JsonRun as what it holds. */
function valueJson(v: unknown): string | Uint8Array {
  const raw = v !== null && typeof v === "object" ? (v as Partial<JsonRun>)[RUN_JSON] : undefined;
  return raw ?? JSON.stringify(v);
}

/**
 * `{status: "success", ...result}` as JSON, the same JSON.stringify makes of it once the full
 * results hold their objects again: text, or its UTF-8 bytes when a full result came as bytes.
 */
export function optimizeAnswerJson(result: OptimizeResult): string | Uint8Array<ArrayBuffer> {
  const { best_result, best_results, ...rest } = result;
  const head = JSON.stringify({ status: "success", ...rest });
  const parts: (string | Uint8Array)[] = [head.slice(0, -1)];
  if ("best_result" in result && best_result !== undefined) parts.push(`,"best_result":`, valueJson(best_result));
  if ("best_results" in result && best_results !== undefined) {
    if (!best_results) parts.push(`,"best_results":null`);
    else {
      parts.push(`,"best_results":[`);
      best_results.forEach(({ result: run, ...set }, i) => {
        const meta = JSON.stringify(set);
        parts.push(`${i ? "," : ""}${meta.slice(0, -1)}${meta.length > 2 ? "," : ""}"result":`, valueJson(run), "}");
      });
      parts.push("]");
    }
  }
  parts.push("}");
  return joinParts(parts);
}

/** The parts as one text, or as one array of UTF-8 bytes when any part is bytes. */
function joinParts(parts: readonly (string | Uint8Array)[]): string | Uint8Array<ArrayBuffer> {
  if (parts.every((p) => typeof p === "string")) return parts.join("");
  const encoder = new TextEncoder();
  const bytes = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
