// Static files of the built chart app (dist-web/) for `resin serve --app`: a file that exists is
// served with its content type; any other GET that is not under an API path gets index.html (the
// app routes on the client).

import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".csv": "text/csv; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
};

/** Path prefixes that belong to the API: unknown paths under them stay JSON 404s. */
const API_PREFIXES = ["/run", "/optimize", "/backtest", "/health"];

function isApiPath(path: string): boolean {
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

async function fileResponse(file: string, head: boolean): Promise<Response | null> {
  try {
    const st = await stat(file);
    if (!st.isFile()) return null;
    const body = head ? null : await readFile(file);
    const type = TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
    const cache = file.includes(`${sep}assets${sep}`) ? "public, max-age=31536000, immutable" : "no-cache";
    return new Response(body, { status: 200, headers: { "content-type": type, "content-length": String(st.size), "cache-control": cache } });
  } catch {
    return null;
  }
}

export function createStaticFallback(rootDir: string): (req: Request) => Promise<Response | null> {
  const root = resolve(rootDir);
  return async (req) => {
    const url = new URL(req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
    if (isApiPath(path)) return null;
    const head = req.method === "HEAD";
    const rel = normalize(path).replace(/^([/\\])+/, "");
    const file = resolve(join(root, rel));
    if (file.startsWith(root + sep) || file === root) {
      const res = await fileResponse(file === root ? join(root, "index.html") : file, head);
      if (res) return res;
    }
    return fileResponse(join(root, "index.html"), head);
  };
}
