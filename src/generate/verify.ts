// The verifier every proposed script goes through, whichever backend wrote it: it must parse and
// check clean, run on sample bars in interpret and compile mode with identical results, and show
// what the request asked for (a strategy when one was asked, stop / limit / trailing exits, a
// session filter, a date filter, alerts, plots with the requested titles, trades on the sample
// bars). Every check is named, so the answer can list what was verified and the repair round can
// be told exactly what failed.

import type { Call, Diagnostic, Expr, Program, Stmt } from "../lang/ast.js";
import { parse } from "../lang/index.js";
import { check } from "../check/index.js";
import { registry } from "../builtins/index.js";
import type { Bar, RunResult } from "../core/result.js";
import { Runtime } from "../runtime/index.js";
import type { Expectations } from "./intent.js";
import { DEFAULT_SAMPLE_SEED, OTHER_SAMPLE_SEEDS, sampleBars } from "./sample-bars.js";

export interface CheckOutcome {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Verification {
  /** True when every check passed. */
  ok: boolean;
  checks: CheckOutcome[];
  /** Parse and check errors (1-based lines and columns), empty when the script checks clean. */
  diagnostics: Diagnostic[];
  /** What the run on the sample bars gave (absent when the script did not get that far). */
  run?: { bars: number; trades: number; alerts: number; plots: string[]; sample_seed: number | null };
}

/** Fields that legitimately differ between two runs of the same script (ids, timings, the backend used). */
function comparable(r: RunResult): unknown {
  const { run_id: _r, profile: _p, mode: _m, auto_backend: _a, compile_fallback_reason: _c, ...rest } = r;
  return { ...rest, events: rest.events.map(({ run_id: _x, ...e }) => e) };
}

/** Structural equality, numbers compared with Object.is (NaN equals NaN, 0 differs from -0: bit for bit). */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b);
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka)
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** The first path where two values differ, for the repair message. */
function firstDifference(a: unknown, b: unknown, path = "result"): string {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return path;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (!sameValue(x, y)) return firstDifference(x, y, `${path}.${k}`);
  }
  return path;
}

/** Every call in the program, with its dotted callee name. */
function calls(program: Program): { name: string; call: Call }[] {
  const out: { name: string; call: Call }[] = [];
  const nameOf = (e: Expr): string =>
    e.kind === "Ident" ? e.name : e.kind === "Member" ? `${nameOf(e.object)}.${e.property.name}` : "";
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    const n = node as { kind?: string };
    if (n.kind === "Call") out.push({ name: nameOf((n as Call).callee), call: n as Call });
    for (const [k, v] of Object.entries(n)) if (k !== "span" && typeof v === "object") visit(v);
  };
  visit(program.body as Stmt[]);
  return out;
}

function hasArg(c: Call, ...names: string[]): boolean {
  return c.args.some((a) => a.name && names.includes(a.name.name));
}

export interface VerifyOptions {
  /** Bars to run on; default: sampleBars() placed inside the requested date range. */
  bars?: Bar[];
}

export async function verify(script: string, expect: Expectations, options: VerifyOptions = {}): Promise<Verification> {
  const checks: CheckOutcome[] = [];
  const pass = (name: string, ok: boolean, detail: string): boolean => {
    checks.push({ name, ok, detail });
    return ok;
  };
  const done = (diagnostics: Diagnostic[], run?: Verification["run"]): Verification => ({
    ok: checks.every((c) => c.ok),
    checks,
    diagnostics,
    ...(run ? { run } : {}),
  });

  const parsed = parse(script);
  const parseErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (
    !pass(
      "parses",
      parseErrors.length === 0,
      parseErrors.length ? `${parseErrors.length} syntax error(s)` : "no syntax errors",
    )
  )
    return done(parseErrors);
  if (parsed.ast.version !== 6 && parsed.ast.version !== 5)
    pass("version", false, "the script must declare //@version=6");
  const checked = check(parsed.ast, registry);
  if (
    !pass(
      "checks",
      checked.diagnostics.length === 0,
      checked.diagnostics.length ? "name/type errors" : "names, types and qualifiers check clean",
    )
  )
    return done(checked.diagnostics);

  let seed: number | null = options.bars ? null : DEFAULT_SAMPLE_SEED;
  let bars = options.bars ?? sampleBars(expect.dateRange, DEFAULT_SAMPLE_SEED, expect.sampleTimeframe);
  const rt = new Runtime("SAMPLE");
  let a = await rt.run(script, bars, { mode: "interpret" });
  const tradesOf = (r: RunResult): number => (r.strategy?.trades.length ?? 0) + (r.strategy?.open_trades.length ?? 0);
  // a strategy whose entries are rare may not trade on one walk: the next walks are tried before the
  // trades check says it never trades (all further checks run on the walk that traded)
  if (expect.strategy && !options.bars && !a.error && tradesOf(a) === 0) {
    for (const other of OTHER_SAMPLE_SEEDS) {
      const otherBars = sampleBars(expect.dateRange, other, expect.sampleTimeframe);
      const r = await rt.run(script, otherBars, { mode: "interpret" });
      if (r.error || tradesOf(r) === 0) continue;
      [seed, bars, a] = [other, otherBars, r];
      break;
    }
  }
  const b = await rt.run(script, bars, { mode: "compile" });
  if (
    !pass(
      "runs",
      !a.error,
      a.error
        ? `${a.error_kind} error: ${a.error}${a.error_bar !== undefined ? ` at bar ${a.error_bar}` : ""}`
        : `ran on ${bars.length} sample bars`,
    )
  )
    return done(a.diagnostics ?? []);
  const ca = comparable(a);
  const cb = comparable(b);
  pass(
    "modes agree",
    sameValue(ca, cb),
    sameValue(ca, cb)
      ? `interpret and ${b.mode} gave identical results`
      : `interpret and compile differ at ${firstDifference(ca, cb)}`,
  );

  const all = calls(parsed.ast);
  const some = (pred: (c: { name: string; call: Call }) => boolean): boolean => all.some(pred);
  const trades = (a.strategy?.trades.length ?? 0) + (a.strategy?.open_trades.length ?? 0);
  if (expect.strategy) {
    pass(
      "strategy",
      a.script_type === "strategy",
      a.script_type === "strategy"
        ? "declared with strategy()"
        : `declared as ${a.script_type}, a strategy was asked for`,
    );
    pass(
      "trades",
      trades > 0,
      trades > 0
        ? `${trades} trade(s) on the sample bars${seed !== null && seed !== DEFAULT_SAMPLE_SEED ? ` (walk ${seed}: none on the first)` : ""}`
        : `no trades on the sample bars (${seed === null ? "the bars given" : `${1 + OTHER_SAMPLE_SEEDS.length} random walks`})`,
    );
  }
  if (expect.pyramiding !== null) {
    const ok = some((c) => c.name === "strategy" && hasArg(c.call, "pyramiding"));
    pass("pyramiding", ok, ok ? "strategy(pyramiding = ...) declared" : "no pyramiding argument in strategy()");
  }
  if (expect.maxBars !== null) {
    // a time exit shows in the run: no closed trade lasted longer than asked
    const n = expect.maxBars;
    const long = (a.strategy?.trades ?? []).filter((t) => (t.exit_bar_index ?? 0) - t.entry_bar_index > n);
    pass(
      "time exit",
      long.length === 0,
      long.length === 0
        ? `no trade held longer than ${n} bars`
        : `${long.length} trade(s) held longer than ${n} bars (first entered at bar ${long[0]!.entry_bar_index})`,
    );
  }
  if (expect.flatAtDayEnd) {
    // nothing held overnight: each closed trade exits on its entry's day (the sample bars' days are UTC)
    const day = (t: number): number => Math.floor(t / 86_400_000);
    const held = (a.strategy?.trades ?? []).filter(
      (t) => t.exit_time !== null && day(t.exit_time) !== day(t.entry_time),
    );
    pass(
      "flat at day end",
      held.length === 0,
      held.length === 0
        ? "no trade held overnight"
        : `${held.length} trade(s) held overnight (first entered at bar ${held[0]!.entry_bar_index})`,
    );
  }
  const exits = all.filter((c) => c.name === "strategy.exit").map((c) => c.call);
  if (expect.stop)
    pass(
      "stop exit",
      exits.some((c) => hasArg(c, "stop", "loss")),
      exits.length ? "strategy.exit with a stop" : "no strategy.exit with stop/loss",
    );
  if (expect.target)
    pass(
      "limit exit",
      exits.some((c) => hasArg(c, "limit", "profit")),
      "strategy.exit with a limit",
    );
  if (expect.trail)
    pass(
      "trailing exit",
      exits.some((c) => hasArg(c, "trail_offset", "trail_points", "trail_price")),
      "strategy.exit with trail_offset",
    );
  if (expect.session) {
    const ok = some((c) => (c.name === "time" || c.name === "time_close") && c.call.args.length >= 2);
    pass(
      "session filter",
      ok,
      ok ? "time(timeframe, session) filter present" : "no time(timeframe.period, session) filter",
    );
  }
  if (expect.dateRange) {
    const ok = some((c) => c.name === "timestamp" || c.name === "input.time");
    pass("date filter", ok, ok ? "timestamp() date filter present" : "no date range filter (timestamp)");
  }
  if (expect.alerts) {
    // an alert whose condition never holds (e.g. two clauses joined into one impossible condition)
    // is no alert: it must fire on the sample bars, alert() or alertcondition() alike
    const ok = some((c) => c.name === "alert" || c.name === "alertcondition");
    const fired = a.alerts.length;
    pass(
      "alerts",
      ok && fired > 0,
      !ok
        ? "no alert() or alertcondition() call"
        : fired > 0
          ? `${fired} alert(s) fired on the sample bars`
          : "no alert fired on the sample bars (its condition never held)",
    );
  }
  const titles = Object.values(a.plot_meta).map((m) => m.title);
  for (const t of expect.plotTitles)
    pass(
      `plot "${t}"`,
      titles.includes(t),
      titles.includes(t)
        ? "plotted with the requested title"
        : `no plot titled "${t}" (plots: ${titles.join(", ") || "none"})`,
    );
  return done([], { bars: bars.length, trades, alerts: a.alerts.length, plots: titles, sample_seed: seed });
}

/** Diagnostics and failed checks as lines for the next round's prompt. */
export function feedbackLines(v: Verification): string[] {
  const out: string[] = [];
  for (const d of v.diagnostics)
    out.push(`line ${d.line}:${d.column}: ${d.severity}: ${d.message}${d.code ? ` [${d.code}]` : ""}`);
  for (const c of v.checks) if (!c.ok) out.push(`check '${c.name}' failed: ${c.detail}`);
  return out;
}
