// What a script-writing backend is to the generator: given the request (its text and the intent
// the offline grammar read from it) and, from the second round on, the previous script with what
// failed, it proposes a script. The loop (generate.ts) verifies every proposal.

import type { Intent } from "./intent.js";

export interface ProposalRequest {
  text: string;
  intent: Intent;
  /** 1 for the first attempt. */
  round: number;
  /** The previous round's script and the diagnostics / failed checks it got, from round 2 on. */
  previous: { script: string; feedback: string[] } | null;
}

export interface Proposal {
  script: string;
}

export interface Backend {
  readonly name: "offline" | "llm";
  propose(request: ProposalRequest): Promise<Proposal>;
}

/** A failure of the backend itself (no script at all), with a stable code for the surfaces. */
export class BackendError extends Error {
  constructor(
    readonly code: "BACKEND_NOT_CONFIGURED" | "BACKEND_FAILED" | "BACKEND_TIMEOUT",
    message: string,
  ) {
    super(message);
    this.name = "BackendError";
  }
}
