// Loading kernels.wasm once, instantiating per run, snapshot/restore of kernel memory.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  createKernels,
  createKernelsSync,
  defaultKernelUrl,
  getKernelModule,
  loadKernelModule,
  setKernelModule,
} from "../../src/kernels/index.js";

describe("kernels loader", () => {
  it("compiles the module once and gives each run fresh memory", async () => {
    const m1 = await getKernelModule();
    const m2 = await getKernelModule();
    expect(m1).toBe(m2);
    const a = await createKernels();
    const b = await createKernels();
    expect(a.x.memory).not.toBe(b.x.memory);
    const h = a.x.sum_new(3);
    a.x.sma_next(h, 0, 5, 3);
    // a fresh instance starts from an empty heap: its first state lands where a's did
    expect(b.x.sum_new(3)).toBe(h);
  });

  it("accepts bytes, a Module and a file URL", async () => {
    const bytes = readFileSync(defaultKernelUrl());
    const fromBytes = await loadKernelModule(new Uint8Array(bytes));
    expect(WebAssembly.Module.exports(fromBytes).some((e) => e.name === "sma_next")).toBe(true);
    setKernelModule(fromBytes);
    expect(await getKernelModule()).toBe(fromBytes);
    const fromUrl = await loadKernelModule(defaultKernelUrl());
    expect(fromUrl).toBeInstanceOf(WebAssembly.Module);
    const k = createKernelsSync(fromUrl);
    const h = k.x.ema_new(2, 0);
    expect(k.x.ema_next(h, 0, 1)).toBeNaN();
    expect(k.x.ema_next(h, 1, 3)).toBe(2);
  });

  it("a failed load reports the reason and does not stick", async () => {
    await expect(loadKernelModule(new Uint8Array([0, 1, 2, 3]))).rejects.toThrow();
    await expect(loadKernelModule(new URL("file:///nonexistent/kernels.wasm"))).rejects.toThrow();
    expect(await loadKernelModule(defaultKernelUrl())).toBeInstanceOf(WebAssembly.Module);
  });

  it("snapshot/restore rolls every call site back (realtime ticks)", async () => {
    const k = await createKernels();
    const h = k.x.sum_new(2);
    k.x.sma_next(h, 0, 1, 2);
    k.x.sma_next(h, 1, 3, 2);
    const snap = k.snapshot();
    expect(k.x.sma_next(h, 2, 100, 2)).toBe(51.5);
    k.restore(snap);
    expect(k.x.sma_next(h, 2, 5, 2)).toBe(4);
    // a state created after the snapshot keeps its memory: the allocator never hands it out twice
    k.restore(snap);
    const late = k.x.sum_new(2);
    k.restore(snap);
    expect(k.x.sum_new(2)).toBeGreaterThan(late);
  });

  it("a snapshot taken into the last one reuses its bytes while they have room, and a grown heap takes new ones", async () => {
    const k = await createKernels();
    const h = k.x.sum_new(2);
    k.x.sma_next(h, 0, 1, 2);
    const first = k.snapshot();
    k.x.sma_next(h, 1, 3, 2);
    const again = k.snapshot(first);
    // the same object and bytes, now the state after bar 1
    expect(again).toBe(first);
    const bytes = again.bytes;
    expect(k.x.sma_next(h, 2, 100, 2)).toBe(51.5);
    k.restore(again);
    expect(k.x.sma_next(h, 2, 5, 2)).toBe(4);
    // states allocated past the bytes' room: a new copy, whole (the late state rolled back too)
    k.x.sum_new(400);
    const late = k.x.sum_new(2);
    k.x.sma_next(late, 0, 7, 2);
    const grown = k.snapshot(again);
    expect(grown.bytes).not.toBe(bytes);
    expect(grown.top).toBe(k.x.heap_top());
    expect(k.x.sma_next(late, 1, 9, 2)).toBe(8);
    k.restore(grown);
    expect(k.x.sma_next(late, 1, 11, 2)).toBe(9);
    // a smaller heap (a fresh instance's) copied into the larger bytes: restore reads only its top
    const k2 = await createKernels();
    const h2 = k2.x.sum_new(2);
    k2.x.sma_next(h2, 0, 2, 2);
    const small = k2.snapshot(grown);
    expect(small).toBe(grown);
    expect(small.top).toBeLessThan(small.bytes.length);
    expect(k2.x.sma_next(h2, 1, 4, 2)).toBe(3);
    k2.restore(small);
    expect(k2.x.sma_next(h2, 1, 6, 2)).toBe(4);
  });

  it("tuple results come back through the out slots", async () => {
    const k = await createKernels();
    const h = k.x.vwap_new();
    k.x.vwap_next(h, 0, 10, 1, 1, 2);
    const v = k.x.vwap_next(h, 1, 20, 1, 0, 2);
    expect(v).toBe(15);
    expect(k.out(0)).toBe(25);
    expect(k.out(1)).toBe(5);
  });

  it("the out slots and the memory view stay right after the memory grows (the kept view is renewed)", async () => {
    const k = await createKernels();
    const h = k.x.vwap_new();
    k.x.vwap_next(h, 0, 10, 1, 1, 2);
    const before = k.view();
    expect(k.out(0)).toBe(10);
    k.x.memory.grow(2);
    // (growing detached the old buffer: the kept view is empty now)
    expect(before.length).toBe(0);
    k.x.vwap_next(h, 1, 20, 1, 0, 2);
    expect(k.out(0)).toBe(25);
    expect(k.out(1)).toBe(5);
    expect(k.view().buffer).toBe(k.x.memory.buffer);
    expect(k.view().length).toBe(k.x.memory.buffer.byteLength / 8);
  });
});
