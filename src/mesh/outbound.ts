// The outbound guard for user-supplied destinations (alert webhooks, chat APIs): only http(s), no
// private, loopback, link-local, CGNAT or unspecified address literals and no local-only host
// names, unless an operator allows the host explicitly (OUTBOUND_ALLOW_HOSTS, comma-separated
// "host" or "host:port"); redirects are followed by hand (at most 3) and each hop is checked again;
// the request body, the response read and the time are capped.
//
// Host names are not resolved (workerd has no DNS API); Cloudflare's egress does not route to private
// ranges, and on the local provider only explicitly allowed hosts reach loopback.

export class OutboundRefused extends Error {
  constructor(
    message: string,
    readonly code: "URL_INVALID" | "URL_SCHEME" | "URL_PRIVATE" | "REDIRECT_REFUSED" | "BODY_TOO_LARGE",
  ) {
    super(message);
    this.name = "OutboundRefused";
  }
}

export const MAX_OUTBOUND_BODY = 64 * 1024;
export const MAX_RESPONSE_READ = 64 * 1024;
export const OUTBOUND_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function privateV4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && (b as number) >= 16 && (b as number) <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && (b as number) >= 64 && (b as number) <= 127) ||
    a === 255
  );
}

/** IPv6 literal (the URL parser gives it bracketed and normalised): loopback, unspecified, ULA, link-local, mapped v4. */
function privateV6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "::1" || h === "::") return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(h)) return true;
  if (/^fe[89ab][0-9a-f]?:/.test(h)) return true;
  const mapped = /^::ffff:(.+)$/.exec(h);
  if (mapped) {
    const tail = mapped[1] as string;
    const v4 = ipv4(tail);
    if (v4) return privateV4(v4);
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
    if (hex) {
      const hi = Number.parseInt(hex[1] as string, 16);
      return privateV4([hi >> 8, hi & 255]);
    }
    return true;
  }
  return false;
}

function localName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return (
    h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal") || !h.includes(".")
  );
}

export function allowedHosts(raw: unknown): Set<string> {
  if (typeof raw !== "string") return new Set();
  return new Set(
    raw
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The URL if it may be called, else an OutboundRefused with its code. */
export function checkOutboundUrl(raw: string, allow: Set<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(`'${raw}' is not an absolute URL`, "URL_INVALID");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new OutboundRefused(`scheme '${url.protocol}' is refused (http and https only)`, "URL_SCHEME");
  if (url.username || url.password) throw new OutboundRefused("credentials in the URL are refused", "URL_INVALID");
  const host = url.hostname.toLowerCase();
  if (allow.has(host) || allow.has(url.host.toLowerCase())) return url;
  const v4 = ipv4(host);
  const refused = v4 ? privateV4(v4) : host.startsWith("[") || host.includes(":") ? privateV6(host) : localName(host);
  if (refused)
    throw new OutboundRefused(
      `host '${url.hostname}' is a private, loopback, link-local or local-only address (allow it with OUTBOUND_ALLOW_HOSTS)`,
      "URL_PRIVATE",
    );
  return url;
}

export interface OutboundResult {
  status: number;
  /** At most MAX_RESPONSE_READ characters of the answer, for the delivery log. */
  text: string;
}

/** The time cap of one delivery from the worker's OUTBOUND_TIMEOUT_MS var (1 ms to 30 s), else the default. */
export function outboundTimeout(raw: unknown): number {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) && n >= 1 ? Math.min(30_000, n) : OUTBOUND_TIMEOUT_MS;
}

/**
 * POSTs `body` to a checked URL, following redirects only to URLs that pass the guard too. One
 * deadline covers the whole call (every hop and the read of the answer), so redirects cannot stretch it.
 */
export async function guardedPost(
  raw: string,
  body: string,
  headers: Record<string, string>,
  allow: Set<string>,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
  timeoutMs: number = OUTBOUND_TIMEOUT_MS,
): Promise<OutboundResult> {
  if (new TextEncoder().encode(body).length > MAX_OUTBOUND_BODY)
    throw new OutboundRefused(`body is larger than ${MAX_OUTBOUND_BODY} bytes`, "BODY_TOO_LARGE");
  let url = checkOutboundUrl(raw, allow);
  const signal = AbortSignal.timeout(timeoutMs);
  for (let hop = 0; ; hop++) {
    const res = await fetcher(url.href, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal,
    });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new OutboundRefused("too many redirects", "REDIRECT_REFUSED");
      try {
        url = checkOutboundUrl(new URL(location, url).href, allow);
      } catch (e) {
        throw new OutboundRefused(`redirect refused: ${(e as Error).message}`, "REDIRECT_REFUSED");
      }
      continue;
    }
    return { status: res.status, text: await readCapped(res) };
  }
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_RESPONSE_READ) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  const all = new Uint8Array(Math.min(size, MAX_RESPONSE_READ));
  let at = 0;
  for (const c of chunks) {
    const take = Math.min(c.length, all.length - at);
    all.set(c.subarray(0, take), at);
    at += take;
    if (at >= all.length) break;
  }
  return new TextDecoder().decode(all);
}
