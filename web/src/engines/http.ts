// The HTTP engine: the resin server's /run and /optimize (service.md 2.1, 2.3). The edge engine
// reuses `postRun` against the edge worker's /run.

import { unpackSeries, type PackedRunResult } from "../../../src/worker/protocol.js";
import type { PackedBars } from "../../../src/worker/protocol.js";
import { clientSideOptimize } from "./optimize-loop.js";
import {
  EngineError,
  type Engine,
  type EngineRunRequest,
  type OptimizeProgress,
  type OptimizeRequest,
  type OptimizeResult,
} from "./types.js";

/** Row bars for a JSON body; a bar without volume leaves the field out (na, not 0). */
export function barsToRows(p: PackedBars, from = 0, to = p.time.length): Record<string, number>[] {
  const rows: Record<string, number>[] = new Array(to - from);
  for (let i = from; i < to; i++) {
    const row: Record<string, number> = {
      time: p.time[i],
      open: p.open[i],
      high: p.high[i],
      low: p.low[i],
      close: p.close[i],
    };
    if (p.volume[i] === p.volume[i]) row.volume = p.volume[i];
    rows[i - from] = row;
  }
  return rows;
}

export interface HttpTarget {
  baseUrl: string;
  apiKey?: string;
}

/** The servers' request body limit (service.md 2): checked here to say what to do instead. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

async function postJson(
  target: HttpTarget,
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<{ status: number; json: any }> {
  const text = JSON.stringify(body);
  if (text.length > MAX_BODY_BYTES) {
    throw new EngineError(
      `the request would be ${(text.length / 1048576).toFixed(1)} MB, over the server's 5 MB limit: use the in-browser engine for data this large`,
      "BODY_TOO_LARGE",
    );
  }
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (target.apiKey) headers["x-api-key"] = target.apiKey;
  let response: Response;
  try {
    response = await fetch(target.baseUrl.replace(/\/$/, "") + path, { method: "POST", headers, body: text, signal });
  } catch (e) {
    if (signal.aborted) throw new EngineError("cancelled", "CANCELLED");
    throw new EngineError(`cannot reach ${target.baseUrl || "the server"}: ${(e as Error).message}`, "NETWORK");
  }
  let json: any;
  try {
    json = await response.json();
  } catch {
    throw new EngineError(`${path}: HTTP ${response.status} with a body that is not JSON`, "BAD_RESPONSE");
  }
  return { status: response.status, json };
}

/** POST /run; a script error (422) comes back as a result with `error` set, like the library. */
export async function postRun(
  target: HttpTarget,
  req: EngineRunRequest,
  signal: AbortSignal,
  from = req.slice?.[0],
  to = req.slice?.[1],
): Promise<PackedRunResult> {
  const body: Record<string, unknown> = {
    script: req.source,
    data: barsToRows(req.data.bars, from, to),
    symbol: req.symbol,
    inputs: req.inputs,
    profiler: req.profiler,
  };
  if (req.mode) body.mode = req.mode;
  if (req.syminfo) body.syminfo = req.syminfo;
  if (req.realtime) body.realtime = { from_bar: req.realtime.fromBar, ticks: req.realtime.ticks };
  const { status, json } = await postJson(target, "/run", body, signal);
  if (status === 200 && json.status === "success") {
    const { status: _s, ...result } = json;
    return result as PackedRunResult;
  }
  if (status === 422 && json.code === "SCRIPT_ERROR") {
    return {
      series: {},
      plot_meta: {},
      events: [],
      drawings: [],
      alerts: [],
      alert_conditions: [],
      inputs: json.inputs ?? [],
      logs: json.logs ?? [],
      ...json,
    } as PackedRunResult;
  }
  throw new EngineError(`${json.code ?? "HTTP " + status}: ${json.message ?? "request failed"}`, json.code);
}

export class HttpEngine implements Engine {
  readonly id: "http" | "edge" = "http";
  readonly label: string = "HTTP server";
  private controller = new AbortController();

  constructor(readonly target: HttpTarget) {}

  run(req: EngineRunRequest): Promise<PackedRunResult> {
    return postRun(this.target, req, this.controller.signal);
  }

  /** The server runs the whole study; it reports no per-trial progress, only the end. */
  async optimize(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void): Promise<OptimizeResult> {
    onProgress({ done: 0, total: req.n_trials });
    const { data, ...rest } = req;
    const { status, json } = await postJson(
      this.target,
      "/optimize",
      { ...rest, data: barsToRows(data.bars) },
      this.controller.signal,
    );
    if (status !== 200 || json.status !== "success") {
      throw new EngineError(`${json.code ?? "HTTP " + status}: ${json.message ?? "optimize failed"}`, json.code);
    }
    onProgress({ done: json.n_trials ?? req.n_trials, total: json.n_trials ?? req.n_trials });
    return json as OptimizeResult;
  }

  cancel(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }
}

/** The edge worker: same /run contract; optimize runs the client-side loop with trials on the edge. */
export class EdgeEngine extends HttpEngine {
  override readonly id = "edge" as const;
  override readonly label = "Edge worker";
  private loopAbort = new AbortController();

  override optimize(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void): Promise<OptimizeResult> {
    const signal = this.loopAbort.signal;
    return clientSideOptimize(
      req,
      (inputs, from, to) =>
        postRun(
          this.target,
          { source: req.script, data: req.data, symbol: req.symbol, inputs, profiler: false, mode: "interpret" },
          signal,
          from,
          to,
        ),
      {
        concurrency: 4,
        signal,
        // the winner over the whole data set through the edge's /run: the answer's best_result
        fullRun: async (inputs) =>
          unpackSeries(
            await postRun(
              this.target,
              { source: req.script, data: req.data, symbol: req.symbol, inputs, profiler: false, mode: "interpret" },
              signal,
            ),
          ),
      },
      onProgress,
    );
  }

  override cancel(): void {
    super.cancel();
    this.loopAbort.abort();
    this.loopAbort = new AbortController();
  }
}
