// The LLM backend: any OpenAI-compatible chat-completions endpoint (POST {baseUrl}/chat/completions
// with {model, messages}). Configured from the caller or the environment (RESIN_LLM_BASE_URL,
// RESIN_LLM_MODEL, RESIN_LLM_API_KEY); fetch is the only transport, so it runs in Node, browsers
// and workerd alike.

import { type Backend, BackendError, type Proposal, type ProposalRequest } from "./backend.js";
import { buildMessages, extractScript } from "./prompt.js";

export interface LlmConfig {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request; default 60 s. */
  timeoutMs?: number;
}

/** The configuration from environment variables, or null when no endpoint is set. */
export function llmConfigFromEnv(env: Record<string, string | undefined>): LlmConfig | null {
  const baseUrl = env.RESIN_LLM_BASE_URL?.trim();
  const model = env.RESIN_LLM_MODEL?.trim();
  if (!baseUrl || !model) return null;
  const timeout = Number(env.RESIN_LLM_TIMEOUT_SECONDS);
  return {
    baseUrl,
    model,
    ...(env.RESIN_LLM_API_KEY ? { apiKey: env.RESIN_LLM_API_KEY } : {}),
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
  };
}

export class LlmBackend implements Backend {
  readonly name = "llm" as const;

  constructor(
    private readonly config: LlmConfig,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  async propose(request: ProposalRequest): Promise<Proposal> {
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.config.model, messages: buildMessages(request), temperature: 0 }),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 60_000),
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new BackendError(
        timeout ? "BACKEND_TIMEOUT" : "BACKEND_FAILED",
        timeout
          ? `the model endpoint did not answer within ${(this.config.timeoutMs ?? 60_000) / 1000} s`
          : `cannot reach the model endpoint: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!res.ok) {
      const body = (await res.text().catch(() => "")).slice(0, 300);
      throw new BackendError(
        "BACKEND_FAILED",
        `the model endpoint answered HTTP ${res.status}${body ? `: ${body}` : ""}`,
      );
    }
    let content: unknown;
    try {
      const json = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
      content = json.choices?.[0]?.message?.content;
    } catch {
      throw new BackendError("BACKEND_FAILED", "the model endpoint's answer is not JSON");
    }
    if (typeof content !== "string") throw new BackendError("BACKEND_FAILED", "the completion has no message content");
    const script = extractScript(content);
    // no script at all is still a proposal the verifier can reject with a clear reason
    return { script: script ?? content };
  }
}
