// Where `resin optimize` runs each engine run: here (the CLI's own thread, which has the engine
// loaded and warm after its first runs) or on worker threads. A thread's first trials cost far more
// than its later ones: it loads the engine and V8 runs the parser, checker, generated code and broker
// unoptimised until they tier up, about half a second of CPU (docs/benchmarks.md "issue 18, session
// 8, optimize"), which is 60 trials of ema_atr_stop over 20k bars. So a study starts here, with no
// thread at all, and lets threads in only once the work still ahead (the runs left times the median
// CPU time of the last three runs here, read once this thread is past its own warm-up) is worth
// GROW_AFTER_MS: then a thread's start-up is a small part of what it takes over. CPU time, not wall
// time: on a loaded machine a run's wall time counts the waits for a core, which a thread would not
// shorten (docs/benchmarks.md "issue 18, session 9, optimize"). `--workers N` caps the number (this
// thread and N - 1 threads) under the same rule: until session 11 it started them with the study,
// and a 32-trial study of 20k bars on `--workers 2` cost 3.3x its plain runs' CPU, the cold thread's
// start-up being larger than the whole study (docs/benchmarks.md "Issue 18, session 11").
//
// Threads take runs only once they are up (the promise `startThreads` returns: their start-up is
// not a wait of the study), two at a time each (the next run already waits in the thread while this thread is busy
// with a run of its own and cannot hand it one). This thread keeps running trials beside them. Which
// trials run where never changes the result (src/optimize/driver.ts).

/** Work still ahead (CPU ms on this thread) from which threads are let in. */
export const GROW_AFTER_MS = 3000;
/** Runs finished here before their times are read (the first ones are start-up and code not yet optimised). */
const RUNS_BEFORE_GROWING = 10;
/** Runs a thread holds at once: the one it runs and the next one. */
export const RUNS_PER_THREAD = 2;

/** This process's CPU time, ms (only runs here use it: threads are not started yet). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Where a run goes. */
export type Place = "here" | "thread";

export interface GateOptions {
  growAfterMs?: number;
  /** The clock runs here are timed by (default: this process's CPU ms; tests give a wall clock). */
  clock?: () => number;
  /**
   * Starts the threads (called once, when they are let in); resolves when they can take runs.
   * Until then runs stay here.
   */
  startThreads?: () => Promise<void>;
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
  /** The last three runs' times here (CPU by default: the clock option). */
  private readonly recentMs: number[] = [];
  private readonly growAfterMs: number;
  private readonly clock: () => number;

  /**
   * `threads`: worker threads at most, besides this one; `totalRuns`: the study's engine runs
   * (trials x folds), to tell how much is left.
   */
  constructor(
    readonly threads: number,
    private readonly totalRuns: number,
    private readonly options: GateOptions = {},
  ) {
    this.growAfterMs = options.growAfterMs ?? GROW_AFTER_MS;
    this.clock = options.clock ?? cpuMs;
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
    try {
      return await work(place);
    } finally {
      this.finished++;
      if (place === "here") {
        this.hereBusy = false;
        this.finishedHere++;
        this.recentMs.push(this.clock() - t0);
        if (this.recentMs.length > 3) this.recentMs.shift();
        this.maybeGrow();
      } else this.onThreads--;
      this.pump();
    }
  }

  /** A place with room, taken; threads first (this thread hands them work only between its own runs). */
  private take(): Place | null {
    if (this.onThreads < this.open * RUNS_PER_THREAD) {
      this.onThreads++;
      return "thread";
    }
    if (!this.hereBusy) {
      this.hereBusy = true;
      return "here";
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
    if (this.started || this.threads === 0 || this.finishedHere < RUNS_BEFORE_GROWING) return;
    const left = Math.max(0, this.totalRuns - this.finished);
    const runMs = [...this.recentMs].sort((a, b) => a - b)[1] ?? 0;
    if (left * runMs >= this.growAfterMs) this.letThreadsIn();
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
