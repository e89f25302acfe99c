// The front end's results for the last few sources: running the same script again (backtests,
// optimisation trials, a chart re-run on new bars) skips parsing and checking. Safe because a run
// only reads the ResolvedProgram (tests/runtime/program-cache.test.ts checks that a run in either
// mode leaves it exactly as it found it). Runs with libraries are not cached: their check depends
// on more than the source text.
import { parse } from "../lang/index.js";
import { CheckError, check } from "../check/index.js";
import { applyIndicatorTimeframe } from "../check/indicator-timeframe.js";
import { registry } from "../builtins/index.js";

type Parsed = ReturnType<typeof parse>;
type Checked = ReturnType<typeof check>;

interface Entry {
  parsed: Parsed;
  checked: Checked;
}

/**
 * The common case is one script run again and again, but a process often cycles through more (a
 * benchmark's or a service's scripts, a chart's tabs). An evicted script costs more than its parse
 * and check when it comes back: its interpreter closures are built again, and V8 optimises closures
 * made from a literal that already has closures without specialising them to their captured values
 * (loops.pine interpreted, a program rebuilt after eviction: 50 -> 73 ms at 100k bars; docs/
 * benchmarks.md, issue 18, session 24). The source-size bound below keeps the memory in check.
 */
const MAX_ENTRIES = 32;
/**
 * The cache is bounded in size too: an AST and its checked program take roughly a hundred times the
 * source's bytes, so the sources kept add up to at most this many characters (a larger source is not
 * kept at all). Real scripts are a few kilobytes to ~100 KB.
 */
const MAX_SOURCE_CHARS = 1_000_000;
const entries = new Map<string, Entry>();
let sourceChars = 0;

/** parse(source), from the cache when this source was parsed and checked before. */
export function parseSource(source: string): Parsed {
  const hit = entries.get(source);
  if (!hit) return parse(source);
  // most recently used last
  entries.delete(source);
  entries.set(source, hit);
  return hit.parsed;
}

/**
 * check(parsed.ast, registry, libraries) for `parsed` = parseSource(source). Without libraries, the
 * result is kept with the parse it came from (only complete parse + check pairs are cached, so a
 * cached AST is never checked twice).
 */
export function checkSource(
  source: string,
  parsed: Parsed,
  libraries: NonNullable<Parameters<typeof check>[2]>,
): Checked {
  if (libraries.length > 0) return check(parsed.ast, registry, libraries);
  const hit = entries.get(source);
  if (hit && hit.parsed === parsed) return hit.checked;
  const checked = check(parsed.ast, registry, libraries);
  if (source.length > MAX_SOURCE_CHARS) return checked;
  if (hit) {
    entries.delete(source);
    sourceChars -= source.length;
  }
  while (entries.size > 0 && (entries.size >= MAX_ENTRIES || sourceChars + source.length > MAX_SOURCE_CHARS)) {
    const oldest = entries.keys().next().value as string;
    entries.delete(oldest);
    sourceChars -= oldest.length;
  }
  entries.set(source, { parsed, checked });
  sourceChars += source.length;
  return checked;
}

/**
 * check() of the script with its outputs requested from a higher `indicator(timeframe = ...)` than the
 * chart's (src/check/indicator-timeframe.ts); not cached, the chart's timeframe decides it.
 */
export function checkAtTimeframe(
  parsed: Parsed,
  libraries: NonNullable<Parameters<typeof check>[2]>,
  timeframe: string,
): Checked {
  try {
    return check(applyIndicatorTimeframe(parsed.ast, timeframe), registry, libraries);
  } catch (err) {
    if (err instanceof CheckError) return { diagnostics: [err.toDiagnostic()] };
    throw err;
  }
}

/** Forgets every cached front-end result (tests; a host that changes the builtin registry). */
export function clearProgramCache(): void {
  entries.clear();
  sourceChars = 0;
}
