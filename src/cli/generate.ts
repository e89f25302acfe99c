// resin generate "<text>" (options declared in index.ts, which loads this module only for `generate`).
// Writes a Pine v6 script from a description with src/generate: the offline grammar, or an
// OpenAI-compatible model when one is configured (RESIN_LLM_BASE_URL, RESIN_LLM_MODEL,
// RESIN_LLM_API_KEY) or asked for with --backend llm. Only a script that checks clean, runs the
// same in both modes and shows what was asked is printed.
// Output: the script on stdout (or in --out's file) and what was verified / not understood on
// stderr; --json prints the whole answer (or the coded error) on stdout and nothing else there.
// Exit codes: 0 ok, 1 no verified script (not understood, failed verification, backend failure),
// 2 usage error (an unknown backend, --backend llm without configuration).

import { writeFile } from "node:fs/promises";
import {
  type Backend,
  BackendError,
  generate,
  GenerateError,
  LlmBackend,
  llmConfigFromEnv,
  OfflineBackend,
} from "../generate/index.js";

/** Options of `resin generate`, as commander parses them. */
export interface GenerateOptions {
  backend?: string;
  out?: string;
  json?: boolean;
  rounds?: number;
}

function pickBackend(name: string | undefined): Backend | string {
  const config = llmConfigFromEnv(process.env);
  if (name === undefined) return config ? new LlmBackend(config) : new OfflineBackend();
  if (name === "offline") return new OfflineBackend();
  if (name === "llm") {
    if (!config)
      return "--backend llm needs RESIN_LLM_BASE_URL and RESIN_LLM_MODEL (and RESIN_LLM_API_KEY if the endpoint wants one)";
    return new LlmBackend(config);
  }
  return `--backend must be offline or llm, got '${name}'`;
}

export async function execute(text: string, opts: GenerateOptions): Promise<number> {
  const backend = pickBackend(opts.backend);
  if (typeof backend === "string") {
    console.error(`resin generate: ${backend}`);
    return 2;
  }
  try {
    const answer = await generate(text, { backend, ...(opts.rounds ? { maxRounds: opts.rounds } : {}) });
    if (opts.out) await writeFile(opts.out, answer.script);
    if (opts.json) {
      console.log(JSON.stringify({ status: "success", ...answer }, null, 2));
      return 0;
    }
    if (!opts.out) process.stdout.write(answer.script);
    const report = opts.out ? console.log : console.error;
    if (opts.out) report(`wrote ${opts.out}`);
    report(`verified (${answer.backend}, round ${answer.rounds}): ${answer.verified.map((c) => c.name).join(", ")}`);
    report(`sample run: ${answer.run.bars} bars, ${answer.run.trades} trade(s), ${answer.run.alerts} alert(s)`);
    for (const c of answer.corrections) report(`note: ${c}`);
    for (const n of answer.not_understood) report(`not understood: ${n}`);
    return 0;
  } catch (err) {
    if (!(err instanceof GenerateError) && !(err instanceof BackendError)) throw err;
    const details = err instanceof GenerateError ? err.details : {};
    if (opts.json) {
      console.log(JSON.stringify({ status: "error", code: err.code, message: err.message, ...details }, null, 2));
    } else {
      console.error(`resin generate: ${err.message}`);
      for (const n of details.not_understood ?? []) console.error(`not understood: ${n}`);
    }
    return 1;
  }
}
