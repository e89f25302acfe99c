// The rate buckets survive the MeshControl Durable Object's restart: a new Miniflare (a new workerd,
// so a new instance of the object) over the same persisted state still refuses what the limit refuses.
// Before, the buckets lived only in memory and an evicted object restarted them full.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { callJson, meshWorker } from "./harness.js";

const dir = mkdtempSync(join(tmpdir(), "mesh-rl-"));
let mf: Miniflare | null = null;

async function start(): Promise<Miniflare> {
  const m = new Miniflare({
    workers: [await meshWorker({ RATE_PER_KEY_PER_MIN: "3", RATE_PER_SYMBOL_PER_MIN: "1000" })],
    durableObjectsPersist: join(dir, "do"),
    d1Persist: join(dir, "d1"),
  });
  await m.ready;
  return m;
}

afterAll(async () => {
  await mf?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const signal = (key: string) => ({ key, symbol: "RLP", action: "buy", qty: 1, price: 10 });

describe("rate limits persist in the Durable Object's storage", () => {
  it("a restarted object still refuses a key that spent its tokens, and keeps counting from where it was", async () => {
    mf = await start();
    for (let i = 0; i < 3; i++)
      expect((await callJson(mf, "/signal", { json: signal(`rl-${i}`) })).json.order.status).toBe("placed");
    const limited = await callJson(mf, "/signal", { json: signal("rl-3") });
    expect([limited.status, limited.json.code]).toEqual([429, "RATE_LIMITED"]);
    const retryAfter = limited.json.retry_after_ms as number;
    expect(retryAfter).toBeGreaterThan(0);

    // the object's instance goes away with its workerd; the storage stays
    await mf.dispose();
    mf = await start();
    const after = await callJson(mf, "/signal", { json: signal("rl-4") });
    expect([after.status, after.json.code]).toEqual([429, "RATE_LIMITED"]);
    // the wait continues from the stored level (20 s per token at 3/min), not from a fresh bucket
    expect(after.json.retry_after_ms).toBeGreaterThan(0);
    expect(after.json.retry_after_ms).toBeLessThanOrEqual(retryAfter);
    // the kill switch state persisted as before, beside the buckets
    expect((await callJson(mf, "/kill-switch", { internal: true })).json.on).toBe(false);
  }, 120_000);
});
