// POST /generate: a description in, a verified Pine script out (src/generate). Same body handling
// and error style as /run: the one validator (MISSING_FIELD / INVALID_FIELD / UNKNOWN_FIELDS), the
// free tier's rate limit and concurrency slot, every failure a coded {status: "error", code, ...}.
// Codes of its own: 400 EMPTY_REQUEST, 422 NOT_UNDERSTOOD (nothing to build; `not_understood` says
// what), 422 UNVERIFIED (no proposal passed; `attempts` holds each round's feedback),
// 503 BACKEND_NOT_CONFIGURED, 502 BACKEND_FAILED, 504 BACKEND_TIMEOUT (the model endpoint).
// The backend is the offline grammar unless the host's environment configures a model
// (RESIN_LLM_BASE_URL, RESIN_LLM_MODEL, RESIN_LLM_API_KEY); `backend` in the body picks one.
// Verification runs in-process (two runs of 4,000 sample bars per round), not on the run pool.

import type { Hono } from "hono";
import {
  type Backend,
  BackendError,
  DEFAULT_MAX_ROUNDS,
  generate,
  GenerateError,
  LlmBackend,
  llmConfigFromEnv,
  MAX_REQUEST_CHARS,
  MAX_ROUNDS_LIMIT,
  OfflineBackend,
} from "../generate/index.js";
import { ApiError } from "./errors.js";
import type { Env } from "./limits.js";
import { guarded } from "./request.js";
import type { RouteContext } from "./route-context.js";
import type { Schema } from "./validate.js";

export const GENERATE_SCHEMA: Schema = [
  { name: "text", type: "string", required: true },
  { name: "backend", type: "string", default: "auto" },
  { name: "max_rounds", type: "int", default: DEFAULT_MAX_ROUNDS, min: 1, max: MAX_ROUNDS_LIMIT },
];

const BACKENDS = ["auto", "offline", "llm"];

function backendFor(name: string, env: Env, fetchImpl?: typeof fetch): Backend {
  if (!BACKENDS.includes(name))
    throw new ApiError(400, "INVALID_FIELD", `field 'backend' must be one of ${BACKENDS.join(", ")}`, {
      field: "backend",
      expected: BACKENDS.join(" | "),
    });
  const config = llmConfigFromEnv(env);
  if (name === "offline" || (name === "auto" && !config)) return new OfflineBackend();
  if (!config)
    throw new ApiError(
      503,
      "BACKEND_NOT_CONFIGURED",
      "no model endpoint is configured on this host (RESIN_LLM_BASE_URL, RESIN_LLM_MODEL)",
    );
  return new LlmBackend(config, fetchImpl);
}

const BACKEND_STATUS: Record<BackendError["code"], number> = {
  BACKEND_NOT_CONFIGURED: 503,
  BACKEND_FAILED: 502,
  BACKEND_TIMEOUT: 504,
};

export function registerGenerateRoute(app: Hono, ctx: RouteContext, env: Env, fetchImpl?: typeof fetch): void {
  app.post("/generate", (c) =>
    guarded(ctx, c, GENERATE_SCHEMA, async (body) => {
      const text = body.text as string;
      if (text.trim() === "") throw new ApiError(400, "EMPTY_REQUEST", "text is empty: describe the script you want");
      if (text.length > MAX_REQUEST_CHARS)
        throw new ApiError(400, "INVALID_FIELD", `field 'text' is longer than ${MAX_REQUEST_CHARS} characters`, {
          field: "text",
          max_chars: MAX_REQUEST_CHARS,
        });
      const backend = backendFor(body.backend as string, env, fetchImpl);
      try {
        const answer = await generate(text, { backend, maxRounds: body.max_rounds as number });
        return c.json({ status: "success", ...answer }, 200);
      } catch (err) {
        if (err instanceof GenerateError) {
          const status = err.code === "EMPTY_REQUEST" || err.code === "REQUEST_TOO_LONG" ? 400 : 422;
          throw new ApiError(status, err.code, err.message, { ...err.details });
        }
        if (err instanceof BackendError) throw new ApiError(BACKEND_STATUS[err.code], err.code, err.message);
        throw err;
      }
    }),
  );
}
