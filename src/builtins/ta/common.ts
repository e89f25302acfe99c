// Shared helpers of the ta.* builtins: the run's kernel instance, argument checks, site state.
// Every per-call-site state lives in kernel memory (site.state holds only handles, created on the
// first call), so a kernel snapshot/restore rolls every ta.* call site back at once.

import type { Kernels, KernelExports } from "../../kernels/index.js";
import type { CallSite, ExecContext } from "../types.js";
import { LARGE_LENGTH, budgetOf } from "../../core/budget.js";

export function kx(ctx: ExecContext): KernelExports {
  const k = ctx.kernels as Kernels | null | undefined;
  if (!k?.x) {
    ctx.runtimeError(
      "ta.* functions need the WebAssembly kernels (kernels.wasm), which could not be loaded in this host",
    );
  }
  return k.x;
}

export function kernels(ctx: ExecContext): Kernels {
  kx(ctx);
  return ctx.kernels as Kernels;
}

/** A number argument: booleans as 1/0, na (null/undefined/NaN) as NaN. */
export function num(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return NaN;
}

/** A length-like integer argument, checked like TradingView ("must be > 0" unless min says otherwise). */
export function intArg(ctx: ExecContext, v: unknown, fn: string, name = "length", min = 1): number {
  const n = typeof v === "number" ? Math.trunc(v) : NaN;
  if (!(n >= min)) {
    ctx.runtimeError(
      `Invalid value of the '${name}' argument (${v === undefined ? "na" : String(v)}) in the '${fn}' function. It must be ${min === 1 ? "> 0" : ">= " + min}.`,
    );
  }
  if (n > LARGE_LENGTH) checkLengthMemory(ctx, n, fn, name);
  return n;
}

/** Bytes a call site may allocate per unit of length: up to five f64 windows (ta.correlation), rounded up. */
const BYTES_PER_LENGTH = 64;

/**
 * A window of `n` values lives in kernel memory: a length that cannot fit the run's memory budget ends
 * the run with the memory-limit error here, before the kernel tries to allocate it (a WebAssembly
 * memory cannot grow past 4 GiB, and growing it that far would hold the process's memory).
 */
function checkLengthMemory(ctx: ExecContext, n: number, fn: string, name: string): void {
  const b = budgetOf(ctx);
  const bytes = n * BYTES_PER_LENGTH;
  if (bytes > b.memoryLimit - b.memoryUsed || n >= 2 ** 31 / 8)
    ctx.runtimeError(
      `Memory limits exceeded: the '${name}' argument (${n}) of '${fn}' needs about ${Math.round(bytes / 2 ** 20)} MiB of window memory, more than the run's memory budget`,
    );
}

export function truthy(v: unknown): boolean {
  return v === true || (typeof v === "number" && v === v && v !== 0);
}

/** The per-site tuple buffer (owned by the site, reused every bar). */
export function tuple(site: CallSite, n: number): any[] {
  let out = site.out;
  if (!out || out.length !== n) out = site.out = new Array(n).fill(NaN);
  return out;
}

/** Kernel tolerance TradingView applies to "is zero" tests in cmo/mfi/correlation (ta_test_241/244). */
export const EPS = 1e-10;
