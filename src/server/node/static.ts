// Static files of the built chart app (dist-web/) for `resin serve --app`, served by
// @hono/node-server's serveStatic (content types, HEAD, ranges, streaming, refusing `..` and
// encoded separators). What is ours: API paths are never answered from disk (unknown ones stay
// JSON 404s), any other GET that matches no file gets index.html (the app routes on the client),
// and hashed assets are cached for good while everything else is revalidated.

import { Hono } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";

/** Path prefixes that belong to the API: unknown paths under them stay JSON 404s. */
const API_PREFIXES = ["/run", "/optimize", "/backtest", "/health"];

function isApiPath(path: string): boolean {
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

export function createStaticFallback(rootDir: string): (req: Request) => Promise<Response | null> {
  const web = new Hono();
  web.use("*", async (c, next) => {
    await next();
    if (c.res.status === 200 || c.res.status === 206) {
      // A hashed asset never changes; index.html (also what a missing asset falls back to) always may.
      const asset = c.req.path.startsWith("/assets/") && !c.res.headers.get("content-type")?.startsWith("text/html");
      c.res.headers.set("cache-control", asset ? "public, max-age=31536000, immutable" : "no-cache");
    }
  });
  web.use("*", serveStatic({ root: rootDir }));
  // Client-side routes (and anything refused above) get the app's index.html.
  web.use("*", serveStatic({ root: rootDir, path: "index.html" }));
  return async (req) => {
    if (isApiPath(new URL(req.url).pathname)) return null;
    const res = await web.fetch(req);
    return res.status === 404 ? null : res;
  };
}
