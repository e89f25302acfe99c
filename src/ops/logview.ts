// Reading the workers' captured console output (.resin/logs/<worker>.log, JSON lines written by
// the local provider): the last N lines of one worker or of all, optionally followed as they grow.
// `logs`, `workers logs` and `monitor logs` share it; trace reads the structured lines from it.

import type { CmdResult, Ctx, Inv } from "./context.js";
import { CtlError, EXIT } from "./errors.js";
import { follow } from "./interaction.js";
import { paint } from "./output.js";
import type { LogLine } from "./provider-local.js";

export const LOG_OPTIONS: [string, string, "int"?][] = [
  ["--lines <N>", "how many of the last lines (default 50)", "int"],
  ["--follow", "keep printing new lines (Ctrl-C stops)"],
  ["--for <S>", "with --follow: stop after S seconds", "int"],
  ["--since <ISO>", "only lines at or after this time"],
];

function render(ctx: Ctx, l: LogLine): string {
  const colour = l.stream === "stderr" ? "red" : l.stream === "system" ? "gray" : "dim";
  return `${paint(ctx.out, "gray", l.at)} ${paint(ctx.out, "cyan", l.worker)} ${paint(ctx.out, colour, l.stream === "stdout" ? "" : `[${l.stream}] `)}${l.msg}`;
}

export function linesOf(ctx: Ctx, workers: string[], since?: string): LogLine[] {
  const local = ctx.local();
  const all = workers.flatMap((w) => local.readLogs(w));
  const from = since ? Date.parse(since) : Number.NaN;
  if (since && Number.isNaN(from))
    throw new CtlError("USAGE", `--since must be an ISO time (got '${since}')`, { exit: EXIT.USAGE });
  return all.filter((l) => !since || Date.parse(l.at) >= from).sort((a, b) => a.at.localeCompare(b.at));
}

/** The logs command of one worker (or all when `worker` is null). */
export async function showLogs(ctx: Ctx, worker: string | null, opts: Inv["opts"]): Promise<CmdResult> {
  const local = ctx.local();
  const known = new Set([...Object.keys(ctx.config().workers), ...local.loggedWorkers()]);
  if (worker !== null && !known.has(worker))
    throw new CtlError("UNKNOWN_WORKER", `no worker named '${worker}'`, {
      exit: EXIT.USAGE,
      suggestions: [...known].map((w) => `resinctl logs worker ${w}`),
    });
  const workers = worker === null ? [...known].sort() : [worker];
  const n = (opts.lines as number | undefined) ?? 50;
  const lines = linesOf(ctx, workers, opts.since as string | undefined).slice(-n);
  if (!opts.follow) {
    return {
      data: { workers, lines },
      text: lines.length
        ? lines.map((l) => render(ctx, l)).join("\n")
        : `no captured output yet for ${workers.join(", ") || "any worker"} (workers log while \`resinctl dev start\` runs)`,
    };
  }
  // Following prints as it goes (JSON: one line per log line) and returns a summary at the end.
  const seen = new Map(workers.map((w) => [w, local.readLogs(w).length]));
  const emit = (l: LogLine) =>
    ctx.out.write(ctx.flags.json ? `${JSON.stringify({ event: "log", ...l })}\n` : `${render(ctx, l)}\n`);
  for (const l of lines) emit(l);
  let printed = lines.length;
  const signal = await follow(
    () => {
      for (const w of workers) {
        const all = local.readLogs(w);
        for (const l of all.slice(seen.get(w) ?? 0)) {
          emit(l);
          printed++;
        }
        seen.set(w, all.length);
      }
    },
    opts.for as number | undefined,
  );
  return { data: { workers, followed: true, printed, signal }, text: `followed ${printed} lines` };
}
