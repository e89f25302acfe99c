// The best trial's full result of an in-sample study, kept by the thread that ran it, so that the
// winner's best_result is not run again. An in-sample trial runs the study's whole bars with the
// study's job, and its RunResult is the one the winner's full run makes (the trial's broker differs
// only in host keys: trade_limit, which changes nothing while the trades stay under the full run's
// limit, and record_events, off in both), so each thread keeps the result of its own best trial so
// far, scored as the study scores an in-sample trial (optimize/stats.ts), and hands it over as the
// full run's JSON when asked for those inputs. Only what the study asks for by the same inputs is
// given out: a thread that kept another trial (a tie scored elsewhere, a thread replaced mid-study)
// answers null and the winner is run again as before. Bounded: MAX_STUDIES studies a thread, least
// recently offered dropped first, all dropped after IDLE_MS without a trial; taking a study's entry
// drops it.

import type { RunResult } from "../core/result.js";
import { computeStats, score, type ObjectiveName } from "../optimize/stats.js";
import { initialCapitalOf } from "../optimize/trial-eval.js";
import { trialOutcome, type TrialReply } from "../worker/protocol.js";

/** What a thread needs to score a study's trials as the study scores them in-sample. */
export interface KeepBest {
  objective: ObjectiveName;
  minTrades: number;
}

export const MAX_STUDIES = 4;
export const IDLE_MS = 30_000;
/** Closed trades a kept result may hold: below TradingView's default trade limit (strategy/settings.ts), which the full run applies. */
const TRADE_LIMIT = 9000;

interface Kept {
  score: number;
  inputs: Record<string, unknown>;
  result: RunResult;
}

const kept = new Map<string, Kept>();
let idle: ReturnType<typeof setTimeout> | null = null;

/** Forgets every kept result (tests; the idle timer). */
export function dropKept(): void {
  kept.clear();
}

/** How many studies have a kept result here (tests). */
export function keptCount(): number {
  return kept.size;
}

/**
 * Offers a whole-range in-sample trial's result for study `key`: kept when it scores above the one
 * kept (the first of equal scores stays: a thread runs its trials in index order, and the study's
 * winner is the first of its best). Results that cannot stand for the full run are not kept.
 */
export function offerKept(
  key: string,
  keep: KeepBest,
  inputs: Record<string, unknown>,
  result: RunResult,
  reply: TrialReply,
): void {
  if (idle !== null) clearTimeout(idle);
  idle = setTimeout(dropKept, IDLE_MS);
  (idle as { unref?: () => void }).unref?.();
  if (reply.error || reply.timed_out || result.error || result.timed_out) return;
  if (
    reply.profit.length >= TRADE_LIMIT ||
    (result.meta as Record<string, unknown> | undefined)?.trade_limit !== undefined
  )
    return;
  const outcome = trialOutcome(reply);
  const s = score(keep.objective, computeStats(outcome.strategy!.trades, initialCapitalOf(outcome)), keep.minTrades);
  if (!(s > -Infinity)) return;
  const now = kept.get(key);
  if (now && !(s > now.score)) return;
  kept.delete(key);
  kept.set(key, { score: s, inputs, result });
  for (const k of kept.keys()) {
    if (kept.size <= MAX_STUDIES) break;
    kept.delete(k);
  }
}

/** The result kept for study `key` when it was run with these inputs (its entry dropped either way), else null. */
export function takeKept(key: string, inputs: Record<string, unknown>): RunResult | null {
  const k = kept.get(key);
  if (!k) return null;
  kept.delete(key);
  return sameInputs(k.inputs, inputs) ? k.result : null;
}

function sameInputs(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && Object.is(a[k], b[k]));
}
