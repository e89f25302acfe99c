// The scripts registered on the edge worker (its KV registry, src/edge/store.ts), read at deploy time
// so the deploy compiles them ahead of time (edge-aot.ts). The local provider reads its persisted KV
// directly (no running worker needed); the cloudflare provider asks the deployed worker over HTTP,
// (its configured url) and deploys without compiled scripts, saying so, when it cannot reach it.

import type { Ctx } from "./context.js";
import type { AotScript } from "./edge-aot.js";
import { CtlError } from "./errors.js";
import { callWorker, WORKER } from "./worker-client.js";

interface KVRead {
  get(key: string, type: "text"): Promise<string | null>;
  list(opts: { prefix: string; cursor?: string }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

export interface Registered {
  scripts: AotScript[];
  /** Why the list may be incomplete (the worker could not be reached). */
  note?: string;
}

export async function registeredScripts(ctx: Ctx): Promise<Registered> {
  if (ctx.providerName() === "cloudflare") return overHttp(ctx);
  return ctx.local().withStores(async (mf) => {
    const kv = (await mf.getKVNamespace("RESIN_KV")) as unknown as KVRead;
    const scripts: AotScript[] = [];
    let cursor: string | undefined;
    do {
      const page = await kv.list({ prefix: "script:", ...(cursor ? { cursor } : {}) });
      for (const k of page.keys) {
        const text = await kv.get(k.name, "text");
        const s = text === null ? null : (JSON.parse(text) as { id?: unknown; source?: unknown });
        if (s && typeof s.id === "string" && typeof s.source === "string") scripts.push({ id: s.id, source: s.source });
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return { scripts };
  });
}

async function overHttp(ctx: Ctx): Promise<Registered> {
  // only a worker with a known address: the fallback 127.0.0.1 port means none was deployed yet
  if (!ctx.env.SVC_WORKER_URL && !ctx.config().workers[WORKER]?.url)
    return { scripts: [], note: `no scripts compiled ahead of time: workers.${WORKER}.url is not set` };
  try {
    const { json } = await callWorker(ctx, "GET", "/scripts");
    const scripts: AotScript[] = [];
    for (const s of json.scripts as { id: string }[]) {
      const one = await callWorker(ctx, "GET", `/scripts/${encodeURIComponent(s.id)}`);
      if (typeof one.json.source === "string") scripts.push({ id: s.id, source: one.json.source });
    }
    return { scripts };
  } catch (e) {
    if (!(e instanceof CtlError)) throw e;
    return { scripts: [], note: `no scripts compiled ahead of time: the registry was not readable (${e.message})` };
  }
}
