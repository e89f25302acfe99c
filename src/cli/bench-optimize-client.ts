// The HTTP client of `resin bench`'s /optimize rows in a process of its own (bench-optimize.ts forks
// it), so that the host process's CPU time is the server's alone: writing the request's JSON, sending
// it, reading and parsing the answer are the client's. It takes one study per IPC message
// ({url, body}: the request without its bars, which it makes itself from the same generator), posts
// it and sends back the trials' params.

import { generateBars } from "./bench.js";
import { toBarArray } from "../optimize/index.js";

export interface ClientStudy {
  url: string;
  /** The request without `data`. */
  body: Record<string, unknown>;
  bars: number;
  /** Bars as columns {time: [], open: [], ...} instead of rows. */
  columnar: boolean;
}

const cache = new Map<string, unknown>();

/** The study's bars as the request carries them (the same generator and seed as the host's). */
function dataOf(bars: number, columnar: boolean): unknown {
  const key = `${bars}:${columnar}`;
  let data = cache.get(key);
  if (data === undefined) {
    const cols = generateBars(bars);
    data = columnar
      ? Object.fromEntries(
          ["time", "open", "high", "low", "close", "volume"].map((k) => [k, Array.from(cols[k as "time"])]),
        )
      : toBarArray(cols);
    cache.set(key, data);
  }
  return data;
}

async function post(study: ClientStudy): Promise<Record<string, unknown>[]> {
  const body = JSON.stringify({ ...study.body, data: dataOf(study.bars, study.columnar) });
  const send = () => fetch(study.url, { method: "POST", headers: { "content-type": "application/json" }, body });
  // (once more on a reset: a kept-alive socket the server closed while it sat idle between rounds)
  const res = await send().catch(send);
  const json = (await res.json()) as {
    status: string;
    trials?: { params: Record<string, unknown> }[];
    message?: string;
  };
  if (json.status !== "success") throw new Error(`/optimize: ${json.message ?? res.status}`);
  return json.trials!.map((t) => t.params);
}

process.on("message", (m) => {
  post(m as ClientStudy).then(
    (params) => process.send?.({ params }),
    (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) }),
  );
});
process.on("disconnect", () => process.exit(0));
