// `resin optimize --remote <url>`: the study is sent to an edge worker's POST /studies (service.md 4),
// which fans its trials out over worker invocations; progress is polled from GET /studies/:id and the
// result printed as a local study's is. Ctrl-C cancels the study on the worker (DELETE). The API key,
// when the worker has one, comes from RESIN_API_KEY (never the command line).

import type { OptimizeRequest, OptimizeResult } from "../optimize/index.js";

export interface FanoutArgs {
  concurrency?: number;
  batchSize?: number;
  parallelism?: number;
}

/** A coded refusal or failure the worker answered with. */
export class RemoteStudyError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RemoteStudyError";
  }
}

export interface RemoteProgress {
  completed: number;
  total: number;
  best_index: number | null;
}

const POLL_MS = 250;

function base(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RemoteStudyError("INVALID_URL", `--remote ${url} is not a URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new RemoteStudyError("INVALID_URL", "--remote must be an http(s) URL");
  return u.href.replace(/\/+$/, "");
}

async function call(url: string, init: RequestInit = {}): Promise<Record<string, any>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = process.env.RESIN_API_KEY;
  if (key) headers["x-api-key"] = key;
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    throw new RemoteStudyError("REMOTE_UNREACHABLE", `${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = await res.text();
  let json: Record<string, any>;
  try {
    json = JSON.parse(text) as Record<string, any>;
  } catch {
    throw new RemoteStudyError("REMOTE_ERROR", `${url}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (json.status === "error" || res.status >= 400)
    throw new RemoteStudyError(String(json.code ?? `HTTP_${res.status}`), String(json.message ?? text.slice(0, 200)));
  return json;
}

/** Runs the study on the worker at `url` and returns its result (the /optimize result shape). */
export async function runRemoteStudy(
  url: string,
  req: OptimizeRequest,
  fanout: FanoutArgs,
  onProgress?: (p: RemoteProgress) => void,
): Promise<OptimizeResult> {
  const root = base(url);
  const body: Record<string, unknown> = { ...req };
  if (fanout.concurrency !== undefined) body.concurrency = fanout.concurrency;
  if (fanout.batchSize !== undefined) body.batch_size = fanout.batchSize;
  if (fanout.parallelism !== undefined) body.parallelism = fanout.parallelism;
  const started = await call(`${root}/studies`, { method: "POST", body: JSON.stringify(body) });
  const id = String(started.id);
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.once("SIGINT", onSigint);
  try {
    for (;;) {
      if (interrupted) {
        await call(`${root}/studies/${id}`, { method: "DELETE" });
        throw new RemoteStudyError("CANCELLED", `study ${id} cancelled`);
      }
      const s = await call(`${root}/studies/${id}`);
      onProgress?.({ completed: s.completed, total: s.total, best_index: s.best_index ?? null });
      if (s.state === "done") return s.result as OptimizeResult;
      if (s.state === "failed")
        throw new RemoteStudyError(s.error?.code ?? "STUDY_FAILED", s.error?.message ?? "the study failed");
      if (s.state === "cancelled") throw new RemoteStudyError("CANCELLED", `study ${id} was cancelled`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
