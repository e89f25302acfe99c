// The Node host's signal of a client gone away (AppOptions.clientGone): aborted when the connection
// closes before the answer was written, as @hono/node-server aborts the Request's own signal. Reading
// `c.req.raw.signal` makes @hono/node-server build the whole Request for it (a web stream over the
// already-read socket included, cancelled at the answer's end), ~0.1-0.5 ms of the main thread a
// request (docs/benchmarks.md, issue 18, session 23); this listens to the response alone.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

/** A signal aborted when the client goes away before the answer is written; null without Node's request and response. */
export function connectionSignal(c: Context): AbortSignal | null {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  const incoming = env?.incoming;
  const outgoing = env?.outgoing;
  if (!incoming || !outgoing || typeof outgoing.once !== "function") return null;
  const abort = new AbortController();
  const gone = (): void => {
    if (incoming.errored) abort.abort(incoming.errored.toString());
    else if (!outgoing.writableFinished) abort.abort("Client connection prematurely closed.");
  };
  // (closed already: the answer will never reach the client)
  if (outgoing.destroyed || outgoing.socket?.destroyed) gone();
  else outgoing.once("close", gone);
  return abort.signal;
}
