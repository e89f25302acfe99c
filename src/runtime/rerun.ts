// Re-running the script inside one bar: a forming (realtime) bar's ticks (interpret backend),
// each from the state of the previous bar's close (service.md 1.4), and calc_on_order_fills' extra
// executions after fills inside a bar (either backend: `main` is the interpreter's program or the
// compiled loop's re-runnable bar body). Both roll back what an execution changed: the numeric and object
// slots (RunState), collections and UDT objects mutated in place (src/interpret/rollback.ts), the WASM
// kernels' memory, the drawing store and, for ticks of a strategy that does not calc on every tick, the
// broker. Split from evaluate.ts so the bar loop there reads as the loop.
import {
  drawingStoreOf,
  emptyDrawingSnapshot,
  noDrawingsAlive,
  restoreDrawings,
  snapshotDrawings,
} from "../builtins/drawing/index.js";
import type { ExecContext } from "../builtins/types.js";
import type { ResolvedProgram } from "../check/ir.js";
import type { Fn } from "../interpret/compiler.js";
import { ObjectRollback } from "../interpret/rollback.js";
import type { RunState, StateSnapshot } from "../interpret/state.js";
import type { Broker, FillRecalc } from "../strategy/broker.js";
import { tickAt, type Tick } from "./realtime.js";

/** The kernels' rollback (src/kernels/index.ts): snapshot(into) reuses `into`'s buffer when it has room. */
type SnapshotKernels = { snapshot?: (into?: unknown) => unknown; restore?: (s: unknown) => void } | null;

/**
 * calc_on_order_fills: the broker runs the script again after fills inside a bar, with the bar so far as
 * its high/low/close (ctx.ext.fillRecalc); each such execution is rolled back like a realtime tick.
 */
export function installFillRecalc(prog: ResolvedProgram, state: RunState, ctx: ExecContext, main: Fn): void {
  const kernels = ctx.kernels as SnapshotKernels;
  let fsnap: StateSnapshot | undefined;
  // (the kernels' last snapshot: the next one is copied into it, executions never nest)
  let ksnap: unknown;
  const fobjects = ObjectRollback.needed(prog) ? new ObjectRollback(prog, state) : null;
  // (the function inside an object literal: stored into ctx.ext itself, a function made per run
  // survived every minor GC with the whole run it captures, until the next mark-compact)
  const recalc: FillRecalc = {
    run: (high: number, low: number, close: number): void => {
      const h = ctx.high;
      const l = ctx.low;
      const c = ctx.close;
      const confirmed = ctx.isConfirmed;
      const input = ctx.inputBar;
      fsnap = state.snapshot(fsnap);
      if (fobjects) fobjects.save();
      if (kernels?.snapshot) ksnap = kernels.snapshot(ksnap);
      const dstore = drawingStoreOf(ctx);
      // No drawing alive (a strategy drawing nothing): nothing an execution can change but what it
      // creates, which the store's next id tells; the copy of every kind's list is taken only then.
      const dnext = dstore.nextId;
      const dversion = dstore.version;
      const dsnap = noDrawingsAlive(dstore) ? null : snapshotDrawings(dstore);
      // (the bar so far is no input bar as it is: see BrokerHost.inputBar)
      ctx.high = high;
      ctx.low = low;
      ctx.close = close;
      ctx.isConfirmed = false;
      ctx.inputBar = -1;
      state.setBar(ctx);
      try {
        main();
      } finally {
        state.restore(fsnap, prog.varipSlots, prog.varipOnce);
        if (fobjects) fobjects.restore();
        if (ksnap !== undefined) kernels!.restore!(ksnap);
        if (dsnap !== null) restoreDrawings(dstore, dsnap);
        else if (dstore.nextId !== dnext) restoreDrawings(dstore, emptyDrawingSnapshot(dstore, dnext, dversion));
        ctx.high = h;
        ctx.low = l;
        ctx.close = c;
        ctx.isConfirmed = confirmed;
        ctx.inputBar = input;
        state.setBar(ctx);
      }
    },
  };
  ctx.ext.fillRecalc = recalc;
}

/**
 * A forming bar: `ticks` executions along the bar's path (src/runtime/realtime.ts), each rolled back
 * before the next, the last one on the whole bar. A strategy runs once, on the closing tick, unless
 * calc_on_every_tick (then the broker fills tick by tick and is not rolled back).
 */
export class FormingBar {
  private readonly kernels: SnapshotKernels;
  private readonly everyTick: boolean;
  /** Arrays, maps, matrices and UDT objects a tick mutates in place. */
  private readonly objects: ObjectRollback | null;
  private readonly tick: Tick = { high: 0, low: 0, close: 0, frac: 1, volumeFrac: 1 };
  private snap: StateSnapshot | undefined;
  /** The kernels' snapshot of the last bar, copied into on the next (SnapshotKernels). */
  private ksnap: unknown;

  constructor(
    private readonly prog: ResolvedProgram,
    private readonly state: RunState,
    private readonly ctx: ExecContext,
    private readonly broker: Broker | null,
    private readonly ticks: number,
  ) {
    this.kernels = ctx.kernels as SnapshotKernels;
    this.everyTick = broker !== null && broker.settings.calcOnEveryTick;
    this.objects = ticks > 1 && ObjectRollback.needed(prog) ? new ObjectRollback(prog, state) : null;
  }

  /** Runs bar `bar` (its prices already in ctx) tick by tick; the caller closes the bar afterwards. */
  run(bar: number, main: Fn): void {
    const { ctx, state, prog, broker, ticks, everyTick, objects, kernels, tick } = this;
    const { high, low, close, volume } = { high: ctx.high, low: ctx.low, close: ctx.close, volume: ctx.volume };
    const snap = (this.snap = state.snapshot(this.snap));
    if (objects) objects.save();
    const ksnap = kernels?.snapshot ? (this.ksnap = kernels.snapshot(this.ksnap)) : undefined;
    ctx.isRealtime = true;
    // (its ticks' prices are written into ctx from here on: no input bar as it is, BrokerHost.inputBar)
    ctx.inputBar = -1;
    if (everyTick) [ctx.high, ctx.low, ctx.close] = [ctx.open, ctx.open, ctx.open];
    if (broker) broker.onBarOpen(ctx);
    if (everyTick) broker!.beginTicks();
    const bsnap = broker && ticks > 1 && !everyTick ? broker.snapshot() : undefined;
    const dstore = ticks > 1 ? drawingStoreOf(ctx) : undefined;
    const dsnap = dstore ? snapshotDrawings(dstore) : undefined;
    for (let k = 0; k < ticks; k++) {
      if (broker && !everyTick && k < ticks - 1) continue;
      if (k > 0) {
        state.restore(snap, prog.varipSlots, prog.varipOnce);
        if (objects) objects.restore();
        if (ksnap !== undefined) kernels!.restore!(ksnap);
        if (bsnap !== undefined) broker!.restore(bsnap);
        if (dsnap !== undefined) restoreDrawings(dstore!, dsnap);
      }
      tickAt(k, ticks, ctx.open, high, low, close, tick);
      ctx.high = tick.high;
      ctx.low = tick.low;
      ctx.close = tick.close;
      ctx.volume = volume * tick.volumeFrac;
      ctx.isNewTick = k === 0;
      ctx.isConfirmed = k === ticks - 1;
      state.setBar(ctx);
      if (everyTick) broker!.onTick(ctx);
      main();
    }
  }
}
