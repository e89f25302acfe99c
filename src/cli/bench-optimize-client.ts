// The HTTP client of `resin bench`'s /optimize rows in a process of its own (bench-optimize.ts forks
// it), so that the host process's CPU time is the server's alone: writing the request's JSON, sending
// it, reading and parsing the answer are the client's. It takes one study per IPC message
// ({url, body, bars, form}: the request without its bars, which it makes itself from the same generator), posts
// it and sends back the trials' params.

import { generateBars } from "./bench.js";
import { barsInForm, type BodyForm } from "./bench-optimize.js";

export interface ClientStudy {
  url: string;
  /** The request without `data`. */
  body: Record<string, unknown>;
  bars: number;
  form: BodyForm;
}
const cache = new Map<string, unknown>();

/** The study's bars as the request carries them (the same generator and seed as the host's). */
function dataOf(bars: number, form: BodyForm): unknown {
  const key = `${bars}:${form}`;
  let data = cache.get(key);
  if (data === undefined) cache.set(key, (data = barsInForm(generateBars(bars), form)));
  return data;
}

async function post(study: ClientStudy): Promise<Record<string, unknown>[]> {
  const body = JSON.stringify({ ...study.body, data: dataOf(study.bars, study.form) });
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
