// The chart app's Describe box asks the server's POST /generate (HTTP engine) or writes the script in
// the page: both give the same outcome shape, a verified script or the message and what was not understood.
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";
import { requestScript } from "../../web/src/ui/describe-panel.js";

const app = createApp();
const viaApp = ((input: string, init?: RequestInit) => app.request(input, init)) as unknown as typeof fetch;

describe("Describe box", () => {
  it("gets a verified script from the server's /generate", async () => {
    const out = await requestScript("ema 9/21 cross long only, 1% sl", "http://resin.local/", viaApp);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.script).toMatch(/ta\.crossover\(ema9, ema21\)/);
    expect(out.verified).toEqual(expect.arrayContaining(["checks", "modes agree", "stop exit"]));
  });

  it("writes it in the page without a server, and reports what it could not read", async () => {
    const ok = await requestScript("rsi<30 buy, >70 sell, stoplos 2%", null);
    expect(ok.ok).toBe(true);
    expect(ok.notes.join(" ")).toMatch(/read 'stoplos' as 'stoploss'/);
    // words it cannot place: no script, the words named
    const partial = await requestScript("rsi<30 buy, >70 sell, skip fomc days", null);
    expect(partial).toMatchObject({ ok: false, code: "NOT_UNDERSTOOD" });
    expect(partial.notes.join(" ")).toMatch(/not understood: .*fomc/);
    const bad = await requestScript("draw me a cat", null);
    expect(bad).toMatchObject({ ok: false, code: "NOT_UNDERSTOOD" });
    const badServer = await requestScript("draw me a cat", "http://resin.local", viaApp);
    expect(badServer.ok).toBe(false);
    expect(badServer).toMatchObject({ ok: false, code: "NOT_UNDERSTOOD" });
    if (!badServer.ok) expect(badServer.message).toMatch(/could not find a rule/);
  });

  it("says when the server cannot be reached", async () => {
    const refused = (() => Promise.reject(new TypeError("fetch failed"))) as unknown as typeof fetch;
    const out = await requestScript("rsi<30 buy", "http://127.0.0.1:9", refused);
    expect(out).toMatchObject({ ok: false, message: "cannot reach http://127.0.0.1:9: fetch failed" });
  });
});
