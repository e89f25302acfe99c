// The Node host's reader of a request body's bytes (AppOptions.bodyBytes): straight from the socket's
// buffers of @hono/node-server's IncomingMessage, where the Request's text() goes through a web stream
// over it, undici's copy of the chunks and then the decode (~1.2 ms more of the main thread for a
// 1.3 MB /optimize body, docs/benchmarks.md issue 18, session 15). The app parses the bytes without
// decoding their long strings as text (json-bytes.ts); decoded, they are the text the Request reads.

import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * The body's bytes read from the socket, or null (the Request reads it then): a body without a
 * Content-Length (chunked: the app's body limit counts it through the Request), or one something has
 * already started reading.
 */
export function socketBodyBytes(c: Context): Promise<Uint8Array> | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (
    !incoming ||
    incoming.headers["content-length"] === undefined ||
    incoming.readableFlowing !== null ||
    incoming.readableDidRead
  )
    return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.once("end", () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      // (the listener's closure lives as long as the request, a whole /optimize study: not its chunks)
      chunks.length = 0;
      resolve(body);
    });
    incoming.once("error", reject);
    // a connection closed before the body's end ends nothing else
    incoming.once("close", () => {
      if (!incoming.readableEnded) reject(new Error("the request body ended early (connection closed)"));
    });
  });
}
