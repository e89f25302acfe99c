// The evaluate worker as the edge tests start it under Miniflare: the bundle, the compatibility
// settings the deploy uses and the KV/R2 stores every route needs. Each test adds its D1 databases,
// bindings and service bindings on top (`{ ...(await evaluateWorker(bundle)), d1Databases: [...] }`).

import type { WorkerOptions } from "miniflare";
import { type EdgeBundle, edgeModules } from "../../src/ops/edge-build.js";

export async function evaluateWorker(bundle: EdgeBundle) {
  return {
    name: "resin",
    modules: (await edgeModules(bundle)) as WorkerOptions["modules"],
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["RESIN_KV"],
    r2Buckets: ["RESIN_BARS"],
  };
}

/** A `handleRuntimeStdio` that appends each complete line the worker prints to `into`. */
export function collectLines(into: string[]) {
  return (stdout: NodeJS.ReadableStream): void => {
    let buf = "";
    stdout.on("data", (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      into.push(...parts);
    });
  };
}
