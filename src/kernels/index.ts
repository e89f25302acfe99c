// Loading build/kernels.wasm once per process/worker and instantiating it per run.
//
// The interpreter/compile backends do, once per run (stable API):
//     import { createKernels } from "../kernels/index.js";
//     ctx.kernels = await createKernels();
// and ta.* builtins reach it as `ctx.kernels as Kernels`. Every run gets a fresh instance (fresh
// memory); the compiled WebAssembly.Module is shared.
//
// Where the module comes from:
// - Node: read from <package root>/build/kernels.wasm, found relative to this file (src/kernels/ and
//   dist/kernels/ both sit two levels below the package root).
// - Browsers: fetched from the same default URL (Vite bundles build/kernels.wasm as an asset because
//   defaultKernelUrl() is a literal `new URL(..., import.meta.url)`), unless the host set one.
// - workerd (and any host): hand it over first with `setKernelModule(module)` (a WebAssembly.Module,
//   e.g. a workerd wasm module import) or `await loadKernelModule(bytesOrUrl)` (ArrayBuffer,
//   Uint8Array, Response, or a URL/string to fetch).
//
// `snapshot()` / `restore()` copy the used heap bytes, for realtime rollback: restore() brings every
// call site's state back to the snapshot (states created after it keep their memory and restart).

import type { KernelExports } from "./exports.js";

export type { KernelExports } from "./exports.js";

let modulePromise: Promise<WebAssembly.Module> | null = null;

/** Uses an already compiled module (browser / workerd hosts). */
export function setKernelModule(module: WebAssembly.Module): void {
  modulePromise = Promise.resolve(module);
}

/** Compiles the module from bytes, a Response, or a URL to fetch, and keeps it for later runs. */
export function loadKernelModule(
  source: ArrayBuffer | Uint8Array | Response | URL | string | WebAssembly.Module,
): Promise<WebAssembly.Module> {
  const p = compileFrom(source);
  modulePromise = p;
  // A failed load must not stick: the next call may retry.
  p.catch(() => {
    if (modulePromise === p) modulePromise = null;
  });
  return p;
}

async function compileFrom(
  source: ArrayBuffer | Uint8Array | Response | URL | string | WebAssembly.Module,
): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer) return WebAssembly.compile(source);
  if (source instanceof Uint8Array) return WebAssembly.compile(source.slice().buffer as ArrayBuffer);
  // URLs and strings before Response: in Node, merely reading the global `Response` loads undici
  // (about a tenth of a cold `resin run`), which a file URL never needs.
  if (source instanceof URL || typeof source === "string")
    return compileFromUrl(source instanceof URL ? source : new URL(source, baseUrl()));
  if (typeof Response !== "undefined" && source instanceof Response) {
    return WebAssembly.compile(await source.arrayBuffer());
  }
  return compileFromUrl(new URL(String(source), baseUrl()));
}

async function compileFromUrl(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === "file:") return WebAssembly.compile(await readFileBytes(url));
  const res = await fetch(url);
  if (!res.ok) throw new Error(`kernels.wasm: fetch ${url.href} failed with HTTP ${res.status}`);
  return WebAssembly.compile(await res.arrayBuffer());
}

function baseUrl(): string {
  const loc = (globalThis as { location?: { href?: string } }).location;
  return loc?.href ?? import.meta.url;
}

async function readFileBytes(url: URL): Promise<ArrayBuffer> {
  // Imported lazily so that browser bundles never touch node:fs.
  const fs = await import(/* @vite-ignore */ "node:fs/promises");
  const buf = await fs.readFile(url);
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

/** The default location in Node: <package root>/build/kernels.wasm. */
export function defaultKernelUrl(): URL {
  return new URL("../../build/kernels.wasm", import.meta.url);
}

/**
 * The compiled module, loaded from the default location on first use: read from disk in Node,
 * fetched in browsers (Vite rewrites the `new URL(..., import.meta.url)` of defaultKernelUrl() to the
 * bundled asset). Hosts without either (workerd) must call setKernelModule() first.
 */
export function getKernelModule(): Promise<WebAssembly.Module> {
  if (modulePromise) return modulePromise;
  let url: URL;
  try {
    url = defaultKernelUrl();
  } catch {
    return Promise.reject(
      new Error("kernels.wasm is not loaded: call setKernelModule() or loadKernelModule() first in this host"),
    );
  }
  const p = loadKernelModule(url);
  return p.catch((err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `kernels.wasm could not be loaded from ${url.href} (${why}); the host can pass it with setKernelModule() or loadKernelModule()`,
    );
  });
}

/** One run's kernel instance: the exports plus views and rollback helpers. */
export class Kernels {
  private exports: KernelExports | null = null;
  /** The tuple slots' index in `f64` (outPtr / 8). */
  private outAt = 0;
  /** Float64 view of the memory, kept across calls: reading `memory.buffer` is a slow getter (4.4% of a
   * ta.supertrend strategy's samples when out() read it on every call). Growing the memory detaches
   * the old buffer, which leaves this view empty: that is when it is made again. */
  private f64: Float64Array = new Float64Array(0);

  constructor(
    instance: WebAssembly.Instance | null,
    /** The compiled module it came from (the whole-series passes instantiate their own from it). */
    readonly module: WebAssembly.Module | null = null,
  ) {
    if (instance) this.bind(instance);
    else if (!module) throw new Error("Kernels: an instance or a module is required");
  }

  /**
   * An instance created on first use: a run whose ta.* calls were all precomputed by whole-series
   * passes (which run in a shared instance, src/kernels/series.ts) never pays for one.
   */
  static lazy(module: WebAssembly.Module): Kernels {
    return new Kernels(null, module);
  }

  /** The exports (instantiating the module on first use). */
  get x(): KernelExports {
    return this.exports ?? this.bind(new WebAssembly.Instance(this.module!, { env: { abort: kernelAbort } }));
  }

  /** True once the instance exists. */
  get instantiated(): boolean {
    return this.exports !== null;
  }

  private bind(instance: WebAssembly.Instance): KernelExports {
    const x = instance.exports as unknown as KernelExports;
    this.exports = x;
    this.outAt = x.out_ptr() >>> 3;
    this.f64 = new Float64Array(x.memory.buffer);
    return x;
  }

  /** Float64 view of the whole memory (renewed after memory growth). */
  view(): Float64Array {
    const v = this.f64;
    return v.length !== 0 ? v : this.renew();
  }

  /** Tuple slot i written by the last tuple kernel (a tuple kernel has run, so the instance exists). */
  out(i: number): number {
    const v = this.f64;
    return (v.length !== 0 ? v : this.renew())[this.outAt + i];
  }

  /** A view over the current buffer, after the memory grew (or before the instance existed). */
  private renew(): Float64Array {
    this.f64 = new Float64Array(this.x.memory.buffer);
    return this.f64;
  }

  /**
   * Copy of the used heap (every call site's state), into `into`'s bytes when they have room (a
   * caller taking one per execution, calc_on_order_fills' after every fill, reuses its last: a new
   * backing store of the heap's size each time cost more than the copy).
   */
  snapshot(into?: KernelSnapshot): KernelSnapshot {
    const x = this.x;
    const top = x.heap_top();
    const used = new Uint8Array(x.memory.buffer, 0, top);
    if (into === undefined || into.bytes.length < top) {
      // (room to grow: a state allocated later does not make the next one a new buffer)
      const bytes = new Uint8Array(top + (top >>> 2) + 64);
      bytes.set(used);
      return { top, bytes };
    }
    into.bytes.set(used);
    into.top = top;
    return into;
  }

  /** Brings the memory back to a snapshot. States allocated since keep their (higher) memory. */
  restore(s: KernelSnapshot): void {
    new Uint8Array(this.x.memory.buffer, 0, s.top).set(s.bytes.subarray(0, s.top));
    // The allocator's top is a wasm global, not in the copied bytes: keep the larger one so that
    // memory a live handle still uses is never handed out again.
    const now = this.x.heap_top();
    if (now < s.top) this.x.heap_set(s.top);
  }
}

export interface KernelSnapshot {
  /** The heap's used bytes when taken: the first `top` of `bytes`. */
  top: number;
  bytes: Uint8Array;
}

/**
 * A fresh kernel instance for one run (the module is compiled once and shared). Where a synchronous
 * instantiation is always allowed (Node, workers, workerd) it is created on first use; a browser's
 * main thread instantiates now, asynchronously.
 */
export async function createKernels(): Promise<Kernels> {
  const module = await getKernelModule();
  if (!onBrowserMainThread()) return Kernels.lazy(module);
  const instance = await WebAssembly.instantiate(module, { env: { abort: kernelAbort } });
  return new Kernels(instance, module);
}

function onBrowserMainThread(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return g.document !== undefined && g.WorkerGlobalScope === undefined;
}

/** Same as createKernels, synchronously, when the module is already at hand. */
export function createKernelsSync(module: WebAssembly.Module): Kernels {
  return new Kernels(new WebAssembly.Instance(module, { env: { abort: kernelAbort } }), module);
}

function kernelAbort(): never {
  throw new Error("kernels.wasm aborted");
}
