// The LLM backend against a local fake endpoint replaying recorded completions: the repair loop
// sends diagnostics and failed checks back and takes two repair rounds to a verified script; the
// prompt carries the catalogue entries of the builtins the request is about; endpoint failures and
// rounds running out are coded errors.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { BackendError, generate, GenerateError, LlmBackend, llmConfigFromEnv } from "../../src/generate/index.js";
import { runBoth } from "../helpers/run-both.js";
import { sampleBars } from "../../src/generate/sample-bars.js";
import { type FakeLlm, startFakeLlm } from "./fake-llm.js";
import { buildMessages } from "../../src/generate/prompt.js";
import { understand } from "../../src/generate/understand.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/llm-repair.json", import.meta.url), "utf8")) as {
  request: string;
  completions: { choices: { message: { content: string } }[] }[];
};

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

describe("LLM backend", () => {
  it("repairs a broken script in two rounds and returns the verified third", async () => {
    fake = await startFakeLlm(FIXTURE.completions);
    const backend = new LlmBackend({ baseUrl: fake.baseUrl, model: "recorded-model", apiKey: "sk-test" });
    const answer = await generate(FIXTURE.request, { backend });
    expect(answer.backend).toBe("llm");
    expect(answer.rounds).toBe(3);
    expect(answer.attempts.map((a) => a.ok)).toEqual([false, false, true]);
    // round 1: the check error with its line and column; round 2: the missing stop exit
    expect(answer.attempts[0]!.feedback.join("\n")).toMatch(/^line 9:\d+: error: .*slowest/m);
    expect(answer.attempts[1]!.feedback.join("\n")).toMatch(/check 'stop exit' failed/);
    expect(answer.verified.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "parses",
        "checks",
        "runs",
        "modes agree",
        "strategy",
        "trades",
        "stop exit",
        "session filter",
      ]),
    );
    // what came back runs, in both modes, and trades
    const r = await runBoth(answer.script, sampleBars());
    expect(r.strategy!.trades.length + r.strategy!.open_trades.length).toBeGreaterThan(0);

    expect(fake.requests).toHaveLength(3);
    const [first, second, third] = fake.requests;
    expect(first!.headers.authorization).toBe("Bearer sk-test");
    expect(first!.body.model).toBe("recorded-model");
    const system = first!.body.messages[0]!.content;
    // the catalogue entries of the builtins the request needs
    expect(system).toMatch(/^ta\.ema\(source: series int\/float, length: simple int\) -> series float$/m);
    expect(system).toMatch(/^strategy\.exit\(id: series string, /m);
    expect(system).toMatch(/^time\(timeframe: series string, session\?: series string, timezone/m);
    expect(first!.body.messages).toHaveLength(2);
    // the repair rounds carry the previous script and what resin found
    expect(second!.body.messages).toHaveLength(4);
    expect(second!.body.messages[2]!.content).toContain("plot(slowest");
    expect(second!.body.messages[3]!.content).toMatch(/slowest/);
    expect(third!.body.messages[3]!.content).toMatch(/stop exit/);
  });

  it("the prompt states the grammar's rules: days on the daily timeframe, and before or, time exits", () => {
    const text = "50 day sma cross 200 day sma or rsi < 30 and close > vwap buy, exit after 10 bars";
    const [system] = buildMessages({ text, intent: understand(text), round: 1, previous: null });
    expect(system!.content).toMatch(/"a and b or c" means \(a and b\) or c/);
    expect(system!.content).toMatch(/An average in days \("50 day sma"\)/);
    expect(system!.content).toMatch(/^request\.security\(/m);
    expect(system!.content).toMatch(/^strategy\.close_all\(/m);
    expect(system!.content).toMatch(/^strategy\.opentrades\.entry_bar_index\(/m);
  });

  it("gives up with UNVERIFIED and every round's feedback when the rounds run out", async () => {
    fake = await startFakeLlm(FIXTURE.completions.slice(0, 2));
    const backend = new LlmBackend({ baseUrl: fake.baseUrl, model: "m" });
    const err = await generate(FIXTURE.request, { backend, maxRounds: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GenerateError);
    expect((err as GenerateError).code).toBe("UNVERIFIED");
    expect((err as GenerateError).details.attempts).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it("codes endpoint failures: HTTP errors, unreachable hosts, answers without a script", async () => {
    fake = await startFakeLlm([], { status: 503 });
    const down = new LlmBackend({ baseUrl: fake.baseUrl, model: "m" });
    const e1 = await generate("rsi<30 buy, >70 sell", { backend: down }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(BackendError);
    expect((e1 as BackendError).code).toBe("BACKEND_FAILED");
    expect((e1 as BackendError).message).toMatch(/HTTP 503/);
    await fake.close();

    fake = await startFakeLlm([{ choices: [{ message: { content: "I cannot help with that." } }] }]);
    const prose = new LlmBackend({ baseUrl: fake.baseUrl, model: "m" });
    const e2 = await generate("rsi<30 buy, >70 sell", { backend: prose, maxRounds: 1 }).catch((e: unknown) => e);
    expect((e2 as GenerateError).code).toBe("UNVERIFIED");
  });

  it("reads its configuration from the environment, none without an endpoint", () => {
    expect(llmConfigFromEnv({})).toBeNull();
    expect(llmConfigFromEnv({ RESIN_LLM_BASE_URL: "http://127.0.0.1:1/v1" })).toBeNull();
    expect(
      llmConfigFromEnv({ RESIN_LLM_BASE_URL: "http://h/v1", RESIN_LLM_MODEL: "m", RESIN_LLM_API_KEY: "k" }),
    ).toEqual({
      baseUrl: "http://h/v1",
      model: "m",
      apiKey: "k",
    });
  });
});
