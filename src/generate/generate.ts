// The generator: request text -> a verified script. The offline grammar reads the intent (used by
// every backend: it is what the verifier holds the script to); the backend proposes; the verifier
// parses, checks, runs both modes and checks the intent; failures go back to the backend for
// another round, up to `maxRounds`. A script is returned only when every check passed.

import type { Bar } from "../core/result.js";
import type { Backend } from "./backend.js";
import { type Expectations, expectationsOf, type Intent } from "./intent.js";
import { OfflineBackend } from "./offline.js";
import { understand } from "./understand.js";
import { type CheckOutcome, feedbackLines, verify } from "./verify.js";

export const DEFAULT_MAX_ROUNDS = 3;
export const MAX_ROUNDS_LIMIT = 5;
/** Requests longer than this are refused (a description, not an essay). */
export const MAX_REQUEST_CHARS = 2000;

export interface GenerateOptions {
  backend?: Backend;
  /** Attempts in all (the first and the repairs); default 3, at most 5. */
  maxRounds?: number;
  /** Bars to verify on; default sample bars (sample-bars.ts). */
  bars?: Bar[];
}

export interface Attempt {
  round: number;
  ok: boolean;
  /** Diagnostics and failed checks sent back to the backend (empty when the round passed). */
  feedback: string[];
}

export interface GenerateAnswer {
  /** The verified script. */
  script: string;
  backend: "offline" | "llm";
  rounds: number;
  /** Every check the script passed, e.g. {name: "stop exit", detail: "strategy.exit with a stop"}. */
  verified: CheckOutcome[];
  /** What the request was read as, the typos corrected and what was not understood. */
  understood: string[];
  corrections: string[];
  not_understood: string[];
  attempts: Attempt[];
  /** The sample run: `sample_seed` is the random walk verified on (null when the caller gave the bars). */
  run: { bars: number; trades: number; alerts: number; plots: string[]; sample_seed: number | null };
}

export type GenerateErrorCode = "EMPTY_REQUEST" | "REQUEST_TOO_LONG" | "NOT_UNDERSTOOD" | "UNVERIFIED";

export class GenerateError extends Error {
  constructor(
    readonly code: GenerateErrorCode,
    message: string,
    readonly details: { not_understood?: string[]; attempts?: Attempt[]; script?: string } = {},
  ) {
    super(message);
    this.name = "GenerateError";
  }
}

/** Reads a request, refusing what cannot become a script (empty, too long, nothing to build). */
export function readRequest(text: string): Intent {
  if (text.trim() === "")
    throw new GenerateError("EMPTY_REQUEST", "the request is empty: describe the script you want");
  if (text.length > MAX_REQUEST_CHARS)
    throw new GenerateError("REQUEST_TOO_LONG", `the request is longer than ${MAX_REQUEST_CHARS} characters`);
  return understand(text);
}

/** Nothing to build: no rule and nothing to show. */
function buildsNothing(intent: Intent): boolean {
  const rules = intent.longEntry.length + intent.shortEntry.length;
  return rules === 0 && intent.shown.length === 0 && intent.namedPlots.length === 0 && intent.alertRules.length === 0;
}

export async function generate(text: string, options: GenerateOptions = {}): Promise<GenerateAnswer> {
  const intent = readRequest(text);
  const backend = options.backend ?? new OfflineBackend();
  // the offline backend cannot write what it did not read; an LLM may still make sense of it
  if (backend.name === "offline" && buildsNothing(intent)) {
    throw new GenerateError(
      "NOT_UNDERSTOOD",
      `could not find a rule or an indicator to build in the request${intent.unrecognized.length ? `; not understood: ${intent.unrecognized.join("; ")}` : ""}`,
      { not_understood: intent.unrecognized },
    );
  }
  // nor write a script that leaves part of the request out ("no trades on fomc days" dropped is a
  // different strategy): the words it could not place are named, nothing is returned
  if (backend.name === "offline" && intent.unrecognized.length) {
    throw new GenerateError(
      "NOT_UNDERSTOOD",
      `not understood: ${intent.unrecognized.join("; ")} (nothing was written: a script without it would not be the one asked for; rephrase or leave it out)`,
      { not_understood: intent.unrecognized },
    );
  }
  const expect: Expectations = expectationsOf(intent);
  const maxRounds = Math.max(1, Math.min(MAX_ROUNDS_LIMIT, options.maxRounds ?? DEFAULT_MAX_ROUNDS));
  const attempts: Attempt[] = [];
  let previous = null as { script: string; feedback: string[] } | null;
  for (let round = 1; round <= maxRounds; round++) {
    const { script } = await backend.propose({ text, intent, round, previous });
    const v = await verify(script, expect, options.bars ? { bars: options.bars } : {});
    const feedback = v.ok ? [] : feedbackLines(v);
    attempts.push({ round, ok: v.ok, feedback });
    if (v.ok && v.run) {
      return {
        script,
        backend: backend.name,
        rounds: round,
        verified: v.checks,
        understood: intent.understood,
        corrections: intent.corrections,
        not_understood: intent.unrecognized,
        attempts,
        run: v.run,
      };
    }
    // a backend that gives the same script again will not get further
    if (previous?.script === script) break;
    previous = { script, feedback };
  }
  throw new GenerateError(
    "UNVERIFIED",
    `no script passed verification after ${attempts.length} round(s): ${attempts[attempts.length - 1]!.feedback.join("; ")}`,
    { attempts, not_understood: intent.unrecognized },
  );
}
