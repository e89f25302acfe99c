// Live diagnostics: the parser runs on the page (fast, synchronous); when the script parses, the
// checker's diagnostics come from a dedicated worker that holds the runtime (so a long run on the
// pool never delays them). If that worker is slow or fails, the parser's diagnostics stand.

import * as Comlink from "comlink";
import type { Diagnostic } from "../../../src/lang/ast.js";
import { parse } from "../../../src/lang/index.js";
import type { RuntimeWorkerApi } from "../../../src/worker/runtime.worker.js";
import { createRuntimeWorker } from "../engines/browser.js";

const CHECK_TIMEOUT_MS = 1500;
let lintWorker: Comlink.Remote<RuntimeWorkerApi> | null = null;

export async function diagnose(source: string): Promise<Diagnostic[]> {
  const parsed = parse(source).diagnostics;
  if (parsed.some((d) => d.severity === "error")) return parsed;
  lintWorker ??= Comlink.wrap<RuntimeWorkerApi>(createRuntimeWorker());
  const timeout = new Promise<Diagnostic[]>((resolve) => setTimeout(() => resolve(parsed), CHECK_TIMEOUT_MS));
  try {
    return await Promise.race([lintWorker.check(source), timeout]);
  } catch {
    return parsed;
  }
}
