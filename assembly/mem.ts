// Kernel memory: a bump allocator over linear memory, per-call-site state blocks with a shadow copy
// (so a call site called again on the same bar restarts from the previous bar's state), and the ring
// buffer every windowed kernel embeds at a fixed offset of its state block.
//
// State block layout (bytes):
//   0 i32 last bar seen (-1 = never)    4 i32 block size    8 u32 shadow copy ptr   12 i32 flags
//  16 u32 ring data   20 i32 ring capacity (power of two, 0 = no ring)   24 i32 ring pushes
//  28 i32 last requested window (+1)   32 i32 readable values   36..47 spare
//  48.. kernel scalars
// Everything a kernel needs to roll back lives in the block; ring slots are never overwritten by a
// re-run of the same bar because capacity > window length (see ringEnsure).

let top: usize = 0;

function heapStart(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

export function alloc(bytes: usize): usize {
  if (top == 0) top = heapStart();
  const p = top;
  const end = (p + bytes + 15) & ~(<usize>15);
  const pages = memory.size();
  const need = <i32>((end + 0xffff) >>> 16);
  if (need > pages) {
    if (memory.grow(need - pages) < 0) unreachable();
  }
  memory.fill(p, 0, end - p);
  top = end;
  return p;
}

/** First byte past the used heap (snapshot boundary). */
export function heap_top(): usize {
  if (top == 0) top = heapStart();
  return top;
}

/** Moves the heap end (releasing temporary series buffers, or after a restore). */
export function heap_set(t: usize): void {
  top = t;
}

export const S0: usize = 48;

export function stateNew(size: usize, ringCap: i32): usize {
  const h = alloc(size);
  const sh = alloc(size);
  store<i32>(h, -1, 0);
  store<i32>(h, <i32>size, 4);
  store<u32>(h, <u32>sh, 8);
  if (ringCap > 0) ringEnsure(h, ringCap);
  return h;
}

// Whole-series kernels call each bar exactly once: they turn the shadow copy off while they run.
let shadowOff: bool = false;

export function setShadowOff(off: bool): void {
  shadowOff = off;
}

/** Starts a call on `bar`; returns true when this is a repeated call on the same bar (state rolled back). */
export function begin(h: usize, bar: i32): bool {
  if (shadowOff) {
    store<i32>(h, bar, 0);
    return false;
  }
  const size = <usize>load<i32>(h, 4);
  const sh = <usize>load<u32>(h, 8);
  if (load<i32>(h, 0) != bar) {
    memory.copy(sh, h, size);
    store<i32>(h, bar, 0);
    return false;
  }
  memory.copy(h, sh, size);
  store<i32>(h, bar, 0);
  return true;
}

// ---------------------------------------------------------------- ring buffer of f64

/** How many values can be read back (pushes still held by the ring). */
@inline export function ringCount(h: usize): i32 {
  return load<i32>(h, 32);
}

/** Pushes so far (the sequence number of the next push). */
@inline export function ringPushes(h: usize): i32 {
  return load<i32>(h, 24);
}

@inline export function ringCap(h: usize): i32 {
  return load<i32>(h, 20);
}

// flags bit 0: keep every value from now on. Set when the requested window changes after values
// were pushed (a series length): from then on the ring doubles instead of overwriting, so a later,
// longer window still finds its values (TradingView keeps the whole history).
const KEEP_ALL: i32 = 1;

/** Makes room for `need` readable values (window + 1). Returns true when the buffer was reallocated. */
export function ringEnsure(h: usize, need: i32): bool {
  const last = load<i32>(h, 28);
  if (need != last) {
    if (load<i32>(h, 24) > 0 && last != 0) store<i32>(h, load<i32>(h, 12) | KEEP_ALL, 12);
    store<i32>(h, need, 28);
  }
  const cap = load<i32>(h, 20);
  if (need <= cap) return false;
  let nc: i32 = cap < 8 ? 8 : cap;
  while (nc < need) nc <<= 1;
  const nd = alloc(<usize>nc << 3);
  const n = load<i32>(h, 24);
  if (cap > 0) {
    const old = <usize>load<u32>(h, 16);
    const keep = n < cap ? n : cap;
    for (let i = 0; i < keep; i++) {
      const seq = n - 1 - i;
      store<f64>(nd + (<usize>(seq & (nc - 1)) << 3), load<f64>(old + (<usize>(seq & (cap - 1)) << 3)));
    }
  }
  store<u32>(h, <u32>nd, 16);
  store<i32>(h, nc, 20);
  return true;
}

@inline export function ringPush(h: usize, x: f64): void {
  const n = load<i32>(h, 24);
  let cap = load<i32>(h, 20);
  if (n >= cap && (load<i32>(h, 12) & KEEP_ALL) != 0) {
    ringEnsure(h, cap << 1);
    cap = load<i32>(h, 20);
  }
  store<f64>(<usize>load<u32>(h, 16) + (<usize>(n & (cap - 1)) << 3), x);
  store<i32>(h, n + 1, 24);
  const v = load<i32>(h, 32);
  if (v < cap) store<i32>(h, v + 1, 32);
}

/** The value pushed `i` pushes ago (0 = newest). Caller keeps i < ringCount(h). */
@inline export function ringGet(h: usize, i: i32): f64 {
  const n = load<i32>(h, 24);
  const cap = load<i32>(h, 20);
  return load<f64>(<usize>load<u32>(h, 16) + (<usize>((n - 1 - i) & (cap - 1)) << 3));
}

/** The value with push sequence number `seq`. */
@inline export function ringAt(h: usize, seq: i32): f64 {
  const cap = load<i32>(h, 20);
  return load<f64>(<usize>load<u32>(h, 16) + (<usize>(seq & (cap - 1)) << 3));
}

// ---------------------------------------------------------------- tuple results

let outBuf: usize = 0;

/** Eight f64 slots where tuple kernels leave their extra results. */
export function out_ptr(): usize {
  if (outBuf == 0) outBuf = alloc(64);
  return outBuf;
}

@inline export function setOut(i: i32, v: f64): void {
  store<f64>(out_ptr() + (<usize>i << 3), v);
}
