// Where `resin optimize` runs each engine run: here (the CLI's own thread, which has the engine
// loaded and warm after its first runs) or on worker threads. A thread's first trials cost far more
// than its later ones: it loads the engine and V8 runs the parser, checker, generated code and broker
// unoptimised until they tier up, about 0.3 s of CPU and 0.2 s before it runs at full speed
// (docs/benchmarks.md "Issue 18, session 31"). So a study starts here, with no thread at all, and
// lets threads in only once the work still ahead (the runs left times a run's time here, read once
// this thread is past its own warm-up) is worth a thread's start-up:
// - with a core to spare (coreToSpare: what other processes leave), GROW_AFTER_MS of wall time. The
//   runs' wall time is this thread's own there; their process CPU time also counts V8's compiler
//   threads tiering the code up, two or three times a warm run's for the first runs over 20k bars.
//   On 2 idle cores, 200 trials over 50k bars (about 1.1 s of runs) end 1.05x sooner on two workers
//   with TPE and 1.2x with random sampling, at about 1.2x the CPU; over 100k bars 1.2x and 1.4x;
//   over 20-30k bars (0.5-0.8 s) a thread gains nothing or little and costs 35-45% more CPU, so it is
//   not started;
// - without, BUSY_GROW_AFTER_MS of CPU time: on a loaded machine a run's wall time counts the waits
//   for a core, which a thread would not shorten, and a thread mostly waits for a core and adds its
//   start-up to the CPU bill (sessions 9 and 11, at load 10-16: two workers did not beat one).
// `--workers N` caps the number (this thread and N - 1 threads) under the same rule: until session 11
// it started them with the study, and a 32-trial study of 20k bars on `--workers 2` cost 3.3x its plain
// runs' CPU, the cold thread's start-up being larger than the whole study (docs/benchmarks.md "Issue
// 18, session 11").
//
// Threads take runs only once they are up (the promise `startThreads` returns: their start-up is
// not a wait of the study), two at a time each (the next run already waits in the thread while this thread is busy
// with a run of its own and cannot hand it one). This thread keeps running trials beside them. Which
// trials run where never changes the result (src/optimize/driver.ts).

import { cpus } from "node:os";
import { usableCores } from "../server/node/cores.js";

/** Work still ahead (wall ms of runs on this thread) from which threads are let in, with a core to spare. */
export const GROW_AFTER_MS = 900;
/** Work still ahead (CPU ms) from which threads are let in when the machine has no core to spare. */
export const BUSY_GROW_AFTER_MS = 3000;
/** Runs here whose times are kept: three pairs (a study's runs may alternate between two slices). */
const RECENT_RUNS = 6;
/**
 * Runs finished here before their times are read: the first ones are start-up and code V8 has not
 * optimised yet, and short runs take more of them to settle (200 trials over 20k bars: ~24 runs, their
 * times 65, 25, 3-17 ms and then 0.8-1.9; read after 14, the estimate let threads into such studies,
 * where they gain nothing). A study of long runs waits a little longer for its threads than it must.
 */
const RUNS_BEFORE_GROWING = 24;
/** Runs a thread holds at once: the one it runs and the next one. */
export const RUNS_PER_THREAD = 2;

/** This process's CPU time, ms (only runs here use it: threads are not started yet). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The cores' busy time (ms, summed over the cores os.cpus() lists: user, nice, sys, irq). */
function machineBusyMs(): number {
  let ms = 0;
  for (const { times } of cpus()) ms += times.user + times.nice + times.sys + times.irq;
  return ms;
}

/** The machine's busy time, this process's CPU time and the wall clock when this module loaded. */
const atLoad = { busy: machineBusyMs(), own: cpuMs(), wall: performance.now() };

/**
 * Whether the machine has a core to spare for a thread: since this module loaded (the CLI's start,
 * some hundreds of ms before a study's first runs are timed: the cores' counters tick in 10 ms), the
 * other processes kept so few cores busy that, with this process's own thread on one, at least 3/4 of
 * a core was left. The machine's busy time less this process's own CPU, not the load average: on 2
 * idle cores this process's study (its busy thread and V8's helper threads) had the load average at
 * 1.4-1.6 by itself, and its start-up (V8 compiling its modules on helper threads) kept the cores
 * 0.4-0.6 idle. Where os.cpus() lists nothing, no core is taken as spare.
 */
export function coreToSpare(): boolean {
  const wall = performance.now() - atLoad.wall;
  const listed = cpus().length;
  if (wall <= 0 || listed === 0) return false;
  const others = (machineBusyMs() - atLoad.busy - (cpuMs() - atLoad.own)) / wall;
  // (the others' share of the cores this process may use, where that is fewer than os.cpus() lists:
  // a container's CPU quota on a larger host)
  const usable = usableCores();
  return usable - 1 - (others * usable) / listed >= SPARE_CORE;
}

/** The share of a core left by the others and this thread that counts as a core to spare (coreToSpare). */
const SPARE_CORE = 0.75;

/** How long (ms) the gate keeps an answer of coreToSpare. */
const SPARE_ASK_MS = 250;

/** Where a run goes. */
export type Place = "here" | "thread";

export interface GateOptions {
  /** One threshold, read against `clock`, whatever the machine's load (default: GROW_AFTER_MS by the wall clock with a core to spare, else BUSY_GROW_AFTER_MS by `clock`). */
  growAfterMs?: number;
  /** Whether the machine has a core to spare, asked once the work ahead by the wall clock reaches GROW_AFTER_MS (default coreToSpare). */
  spareCore?: () => boolean;
  /**
   * The clocks runs here are timed by: `clock` where the machine is busy (default: this process's CPU
   * ms), `wallClock` where it has a core to spare (default: performance.now; `clock` when only that is
   * given: tests give a wall clock).
   */
  clock?: () => number;
  wallClock?: () => number;
  /**
   * Starts the threads (called once, when they are let in); resolves when they can take runs.
   * Until then runs stay here.
   */
  startThreads?: () => Promise<void>;
}

/** `ms` kept as the last of `recent`'s RECENT_RUNS. */
function keepRecent(recent: number[], ms: number): void {
  recent.push(ms);
  if (recent.length > RECENT_RUNS) recent.shift();
}

/**
 * A run's time from the last runs' (`recent`): the least mean of its last three pairs (a holdout
 * study's runs alternate between its train slice and its shorter test slice, so a pair is one of each;
 * a run a collection or V8's compiler landed in reads high). Infinity before a pair.
 */
function runTime(recent: readonly number[]): number {
  let ms = Number.POSITIVE_INFINITY;
  for (let i = recent.length % 2; i + 1 < recent.length; i += 2) ms = Math.min(ms, (recent[i]! + recent[i + 1]!) / 2);
  return ms;
}

export class ThreadGate {
  /** Threads taking runs now (0 until they are let in and up). */
  private open = 0;
  private started = false;
  private hereBusy = false;
  private onThreads = 0;
  private readonly waiting: ((place: Place) => void)[] = [];
  private finishedHere = 0;
  private finished = 0;
  /** The last RECENT_RUNS runs' times here, by `clock` and by `wallClock`. */
  private readonly recentMs: number[] = [];
  private readonly recentWallMs: number[] = [];
  private readonly clock: () => number;
  private readonly wallClock: () => number;
  /** `spareCore`'s last answer and when it was asked (wallClock ms; null: never): askSpareCore. */
  private spare = false;
  private spareAskedAt: number | null = null;

  /**
   * `threads`: worker threads at most, besides this one; `totalRuns`: the study's engine runs
   * (optimize.ts studyRuns), to tell how much is left.
   */
  constructor(
    readonly threads: number,
    private readonly totalRuns: number,
    private readonly options: GateOptions = {},
  ) {
    this.clock = options.clock ?? cpuMs;
    this.wallClock = options.wallClock ?? options.clock ?? (() => performance.now());
  }

  /** Threads taking runs now. */
  get threadsOpen(): number {
    return this.open;
  }

  /** Runs that may be in flight at once at most (a study's concurrency: the gate holds back the rest). */
  get maxInFlight(): number {
    return 1 + this.threads * RUNS_PER_THREAD;
  }

  /** Runs `work` where there is room for it: here, or on a thread once they are up. */
  async run<T>(work: (place: Place) => Promise<T>): Promise<T> {
    const place = this.take() ?? (await new Promise<Place>((resolve) => this.waiting.push(resolve)));
    // a run here blocks this thread: once threads are started, first let their messages in (they are
    // macrotasks, and the study's own promise chain would otherwise go from one run here to the next
    // without reading them: the threads' "up" would wait for the study's end, their replies would
    // leave them without work)
    if (place === "here" && this.started) await new Promise((resolve) => setImmediate(resolve));
    const t0 = this.clock();
    const w0 = this.wallClock();
    try {
      return await work(place);
    } finally {
      this.finished++;
      if (place === "here") {
        this.hereBusy = false;
        this.finishedHere++;
        keepRecent(this.recentMs, this.clock() - t0);
        keepRecent(this.recentWallMs, this.wallClock() - w0);
        this.maybeGrow();
      } else this.onThreads--;
      this.pump();
    }
  }

  /**
   * A place with room, taken: this thread first, warm and with no message to cross, then the threads.
   * (Threads first, until session 31, handed a study with two runs in flight at a time, a TPE study's
   * in-sample and out-of-sample run, both to the thread while this one sat idle: `--workers 2` then
   * took longer than one.)
   */
  private take(): Place | null {
    if (!this.hereBusy) {
      this.hereBusy = true;
      return "here";
    }
    if (this.onThreads < this.open * RUNS_PER_THREAD) {
      this.onThreads++;
      return "thread";
    }
    return null;
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      const place = this.take();
      if (!place) return;
      this.waiting.shift()!(place);
    }
  }

  private maybeGrow(): void {
    if (this.started || this.threads === 0) return;
    if (this.finishedHere < RUNS_BEFORE_GROWING) return;
    const left = Math.max(0, this.totalRuns - this.finished);
    const cpuRun = runTime(this.recentMs);
    if (!Number.isFinite(cpuRun)) return;
    const fixed = this.options.growAfterMs;
    if (fixed !== undefined) {
      if (left * cpuRun >= fixed) this.letThreadsIn();
      return;
    }
    // Work enough to pay for a thread on a busy machine pays anywhere. Else, with a core to spare,
    // less does, read in wall time, this thread's own there: in process CPU it also counts V8's
    // compiler threads tiering up the code, which on 2 idle cores read twice or three times the
    // steady run for the first 20-30 runs over 20k bars and let threads into studies where they gain
    // nothing. On a busy machine wall time counts the waits for a core, so CPU time is read there.
    if (left * cpuRun >= BUSY_GROW_AFTER_MS) this.letThreadsIn();
    else if (left * runTime(this.recentWallMs) >= GROW_AFTER_MS && this.askSpareCore()) this.letThreadsIn();
  }

  /**
   * `spareCore`'s answer, asked again only after SPARE_ASK_MS of wall time: os.cpus() reads the cores'
   * counters from the system (~50 us on 2 cores, more on large machines), and on a busy machine the
   * question comes after every run here while the work ahead is between the thresholds.
   */
  private askSpareCore(): boolean {
    const now = this.wallClock();
    if (this.spareAskedAt === null || now - this.spareAskedAt >= SPARE_ASK_MS) {
      this.spareAskedAt = now;
      this.spare = (this.options.spareCore ?? coreToSpare)();
    }
    return this.spare;
  }

  private letThreadsIn(): void {
    if (this.started || this.threads === 0) return;
    this.started = true;
    const up = this.options.startThreads?.() ?? Promise.resolve();
    // threads that fail to start leave the study here (their runs would fail the same way)
    up.then(
      () => {
        this.open = this.threads;
        this.pump();
      },
      () => {},
    );
  }
}
