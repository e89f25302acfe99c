// A run's time and memory budgets, shared by everything that can run long or hold much: the bar loops
// of both backends, every loop iteration, long builtins (matrix products, sorts, large ta.* lengths,
// history walks), request.security's secondary runs, history rings and kernel memory.
//
// Time is counted in work units (one loop iteration is one unit; a builtin spends about one unit per
// eight elements it touches, a bar 128). A countdown is decremented per unit and the clock is read only
// when it reaches zero, so a loop iteration costs one decrement and compare. At each clock read two
// limits are checked:
// - the run's deadline (`timeoutSeconds`): RunTimeout, which the Runtime turns into `timed_out: true`
//   with the partial result (service.md 1.4);
// - TradingView's loop limit: the outermost loop running on one bar for more than 500 ms is a runtime
//   error `Loop is too long (> 500 ms)` (the User Manual's Limitations page: "The outer loop of embedded
//   loops counts as one loop"). The loop's start is taken at its first clock read (it undercounts by at
//   most one stride). Hosts whose clock stands still while code runs (workerd) never see 500 ms pass, so
//   a loop that has run 2^27 units without the clock moving is stopped as well.
// Memory is counted in bytes for what lives outside the JavaScript heap's own limits or is allocated in
// one piece from a script-given size (history rings, kernel memory, collections); past the run's memory
// budget the run ends with the runtime error `Memory limits exceeded` (TradingView's message).
//
// Lives in core because every layer (builtins, both backends, the Runtime) charges it; it reaches them
// through `ctx.ext.budget` (budgetOf).

/** TradingView's per-bar loop limit. */
export const LOOP_LIMIT_MS = 500;
/** Work units between two clock reads. */
export const STRIDE = 4096;
/** Work units one bar counts for in the bar loops: with nothing else charged, a clock read every 32 bars (service.md 1.4). */
export const BAR_UNITS = STRIDE / 32;
/**
 * Milliseconds between two memory probes, at least: a probe (the host's heap reading) costs tens to
 * hundreds of microseconds (Node's reads /proc and the heap's statistics; more on a loaded machine),
 * so the gap also grows to PROBE_COST_RATIO times what the last probe took, which keeps probing
 * under a percent of any run however often the clock is read. The first probe comes PROBE_MS after
 * the budget was made (the run reads its heap baseline then). A host whose clock stands still is
 * probed every PROBE_FROZEN-th clock read instead.
 */
const PROBE_MS = 10;
const PROBE_COST_RATIO = 100;
const PROBE_FROZEN = 1024;
/** Units a loop may run without the clock moving before it is stopped (frozen-clock hosts). */
const FROZEN_CLOCK_UNITS = 1 << 27;
/**
 * Lengths of a ta.* window above this are checked against the run's memory budget before a kernel
 * allocates their windows (builtins/ta/common.ts intArg); the whole-series passes take lengths up to
 * it only, so a longer one runs per bar where that check is made (check/hoist-plan.ts).
 */
export const LARGE_LENGTH = 1 << 16;
/** The default memory budget of a run (bytes): history rings, kernel memory and collections. */
export const DEFAULT_MEMORY_BYTES = 1024 * 1024 * 1024;

export const LOOP_TOO_LONG = `Loop is too long (> ${LOOP_LIMIT_MS} ms)`;

import { primeFeedback } from "./feedback.js";

const clock: () => number = typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

/** The run's wall-clock budget ran out (the Runtime returns the partial result with `timed_out`). */
export class RunTimeout extends Error {
  constructor() {
    super("timeout");
    this.name = "RunTimeout";
  }
}

/** What a run holds in memory beyond its reserved bytes (Budget.usage). */
export interface MemoryUsage {
  read(): number;
}

/** What raises a script runtime error for a budget (a run's ExecContext). */
export interface BudgetHost {
  runtimeError(message: string): never;
}

export class Budget {
  /** Units left before the next clock read (decremented inline by generated code: `if (--B.left <= 0) B.check()`). */
  left = STRIDE;
  /** Loops open right now (nested loops, loops in called functions). */
  depth = 0;
  /** Absolute deadline on the performance clock (ms); Infinity: none. */
  deadline = Infinity;
  /** Memory budget in bytes and what is charged against it. */
  memoryLimit = DEFAULT_MEMORY_BYTES;
  memoryUsed = 0;
  /**
   * Bytes the run holds beyond what reserve() counts (the JavaScript heap's growth since the run began,
   * kernel memory), read by the memory probes; null where the host cannot tell. An object with a
   * method rather than a closure: the bar loops inline the probe, and a closure made per run would be
   * a new call target for their optimised code on every run (a deopt each time).
   */
  usage: MemoryUsage | null = null;
  /**
   * Where script runtime errors are raised (the Runtime sets its context, whose runtimeError gives the
   * statement's line); null: a plain Error. An object, not a closure over the run: on Node 20's V8 a
   * function made per run and stored into a property of an existing object survives every minor GC
   * until the next mark-compact with everything it captures (here the whole run: context, broker,
   * result), ~45 KB a 20k-bar strategy run promoted (issue 18, session 25).
   */
  host: BudgetHost | null = null;
  /** Counts outermost loop entries: the loop limit measures one of them at a time. */
  private generation = 0;
  private timedGeneration = -1;
  // Clock readings start as doubles (NaN: not read yet; both are set before they are read): a field
  // first holding a small integer changes representation at its first fraction, and V8 then drops
  // the optimised code that inlined the bar loop's budget check (the next run deoptimises).
  private loopStart = Number.NaN;
  private lastClock = Number.NaN;
  private frozenUnits = 0;
  private clockReads = 0;
  private lastProbe = Number.NaN;
  private probeGap = Number.NaN;

  constructor(private readonly now: () => number = clock) {
    this.lastProbe = now();
    this.probeGap = PROBE_MS;
  }

  /** Raises a script runtime error (through the host when there is one). */
  fail(message: string): never {
    const host = this.host;
    if (host !== null) return host.runtimeError(message);
    throw new Error(message);
  }

  /** A loop starts (pair with exit(); an error leaving the loop ends the run or is handled by resetDepth). */
  enter(): void {
    if (this.depth++ === 0) this.generation++;
  }

  exit(): void {
    this.depth--;
  }

  /** One loop iteration. */
  tick(): void {
    if (--this.left <= 0) this.check();
  }

  /** `units` of work done (or about to be done) by a builtin. */
  spend(units: number): void {
    this.left -= units;
    if (this.left <= 0) this.check();
  }

  /** Counts one bar of a bar loop (between bars, no loop open); true when the run's deadline has passed. */
  bar(): boolean {
    this.left -= BAR_UNITS;
    return this.left <= 0 && this.barClock();
  }

  /**
   * bar()'s clock read, when its countdown ran out (the compiled loop writes the countdown inline:
   * a call per bar that V8 does not inline into a long loop body costs more than the countdown).
   */
  barClock(): boolean {
    this.left = STRIDE;
    const t = this.now();
    if (this.usage !== null) this.probe(t);
    return t > this.deadline;
  }

  /** Probes the memory held when the probe gap passed since the last probe (see PROBE_MS). */
  private probe(t: number): void {
    if (t - this.lastProbe >= this.probeGap || (++this.clockReads & (PROBE_FROZEN - 1)) === 0) {
      this.checkMemory();
      const done = this.now();
      this.lastProbe = done;
      this.probeGap = Math.max(PROBE_MS, (done - t) * PROBE_COST_RATIO);
    }
  }

  /** The countdown reached zero: read the clock and enforce the deadline and the loop limit. */
  check(): void {
    const spent = STRIDE - this.left;
    this.left = STRIDE;
    const t = this.now();
    if (t > this.deadline) throw new RunTimeout();
    if (this.usage !== null) this.probe(t);
    if (this.depth <= 0) return;
    if (this.timedGeneration !== this.generation) {
      this.timedGeneration = this.generation;
      this.loopStart = t;
      this.lastClock = t;
      this.frozenUnits = 0;
      return;
    }
    if (t - this.loopStart > LOOP_LIMIT_MS) this.fail(LOOP_TOO_LONG);
    if (t === this.lastClock) {
      this.frozenUnits += spent;
      if (this.frozenUnits >= FROZEN_CLOCK_UNITS) this.fail(LOOP_TOO_LONG);
    } else {
      this.lastClock = t;
      this.frozenUnits = 0;
    }
  }

  /** Ends the run when what it holds (usage() plus the reserved bytes) passes the memory budget. */
  checkMemory(): void {
    const used = (this.usage === null ? 0 : this.usage.read()) + this.memoryUsed;
    if (used > this.memoryLimit)
      this.fail(
        `Memory limits exceeded: the run holds ${mib(used)} MiB, its memory budget is ${mib(this.memoryLimit)} MiB`,
      );
  }

  /** Charges `bytes` of memory for `what`; past the budget the run ends with TradingView's error. */
  reserve(bytes: number, what: string): void {
    this.memoryUsed += bytes;
    if (this.memoryUsed > this.memoryLimit) {
      this.memoryUsed -= bytes;
      this.fail(
        `Memory limits exceeded: ${what} needs ${mib(bytes)} MiB, the run's memory budget is ${mib(this.memoryLimit)} MiB`,
      );
    }
  }

  release(bytes: number): void {
    this.memoryUsed = Math.max(0, this.memoryUsed - bytes);
  }
}

// The clock read every STRIDE units (bar()'s and check()'s rare path, probe()'s usual no-probe exit)
// runs a few times before the bar loop is optimised, too few for its own feedback: the optimised loop
// then deoptimised at probe's first field read in about half the processes (core/feedback.ts). The
// calls here read the clock and the probe gap on a throwaway budget, as a run's do, within microseconds
// (far from a deadline, the loop limit or the probe gap: no memory is read, nothing fails).
{
  const b = new Budget();
  b.usage = { read: () => 0 };
  primeFeedback(() => {
    b.left = 1;
    b.bar();
    b.left = 0;
    b.check();
    b.enter();
    b.check();
    b.check();
    b.exit();
  });
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0);
}

/** The run's budget, created unlimited on first use when the host set none (tests, secondary contexts made alone). */
export function budgetOf(ctx: { ext: Record<string, unknown> }): Budget {
  let b = ctx.ext.budget as Budget | undefined;
  if (!b) ctx.ext.budget = b = new Budget();
  return b;
}
