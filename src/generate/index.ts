// src/generate: from a sentence to a verified Pine script (see README.md in this folder).
export {
  generate,
  readRequest,
  GenerateError,
  DEFAULT_MAX_ROUNDS,
  MAX_ROUNDS_LIMIT,
  MAX_REQUEST_CHARS,
} from "./generate.js";
export type { GenerateAnswer, GenerateOptions, Attempt, GenerateErrorCode } from "./generate.js";
export { type Backend, BackendError, type Proposal, type ProposalRequest } from "./backend.js";
export { OfflineBackend } from "./offline.js";
export { LlmBackend, llmConfigFromEnv, type LlmConfig } from "./llm.js";
export { understand } from "./understand.js";
export { emit } from "./emit.js";
export { verify, type Verification, type CheckOutcome } from "./verify.js";
export { sampleBars } from "./sample-bars.js";
export type { Intent, Expectations } from "./intent.js";
export { expectationsOf } from "./intent.js";
