// The offline backend: no network, no key. The request's intent (read by understand.ts) is
// written out by emit.ts. It is deterministic, so a second round cannot do better than the first;
// the loop stops as soon as a proposal repeats.

import type { Backend, Proposal, ProposalRequest } from "./backend.js";
import { emit } from "./emit.js";

export class OfflineBackend implements Backend {
  readonly name = "offline" as const;

  async propose(request: ProposalRequest): Promise<Proposal> {
    return { script: emit(request.intent) };
  }
}
