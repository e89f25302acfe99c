// The operations dashboard: one static page (workers, health, recent trades, kill switch) that
// reads the edge worker's API. `dashboard dev` serves it on 127.0.0.1 with /api/* proxied to the
// running worker (the API key added server-side, never shipped to the page); `dashboard deploy`
// stores it as a numbered static bundle (local) or publishes it with wrangler pages (cloudflare).

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>resin operations</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{padding:.25rem .75rem;border-bottom:1px solid #ddd;text-align:left}.on{color:#b00}.ok{color:#080}</style>
</head><body>
<h1>resin operations</h1>
<section><h2>Health</h2><pre id="health">loading</pre></section>
<section><h2>Kill switch</h2><p id="kill">loading</p></section>
<section><h2>Recent trades</h2><table id="trades"><tr><th>sent</th><th>job</th><th>symbol</th><th>kind</th><th>dir</th><th>qty</th></tr></table></section>
<script>
const api = (p) => fetch("api/" + p).then((r) => r.json());
api("health").then((h) => { document.getElementById("health").textContent = JSON.stringify(h, null, 2); });
api("kill-switch").then((k) => { const e = document.getElementById("kill"); e.textContent = k.on ? "ON: trade signals halted" : "off"; e.className = k.on ? "on" : "ok"; });
api("trades?limit=20").then((t) => { const tb = document.getElementById("trades"); for (const x of t.trades || []) { const tr = tb.insertRow(); for (const v of [new Date(x.at).toISOString(), x.job_id, x.symbol, x.kind, x.direction || "", x.qty ?? ""]) tr.insertCell().textContent = String(v); } });
</script></body></html>
`;

export async function buildDashboard(root: string): Promise<{ dir: string; bytes: number }> {
  const dir = join(root, ".resin", "dashboard", "build");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.html"), DASHBOARD_HTML);
  return { dir, bytes: Buffer.byteLength(DASHBOARD_HTML) };
}

export function dashboardHtml(root: string): string {
  try {
    return readFileSync(join(root, ".resin", "dashboard", "build", "index.html"), "utf8");
  } catch {
    return DASHBOARD_HTML;
  }
}
