// RSI as one state machine: rma of up and down moves (na moves skipped), seeded like ta.rma (the
// compensated mean of the first `length` moves, see avg.ts).
import { S0, stateNew, begin } from "./mem";
import { seedAdd, seedSum } from "./avg";

// scalars: S0 prev x, +8 up seed sum, +16 its compensation, +24 down seed sum, +32 its compensation,
//          +40 up rma, +48 down rma, +56 i32 count, +60 i32 length

export function rsi_new(len: i32): usize {
  const h = stateNew(S0 + 64, 0);
  store<f64>(h, NaN, S0);
  store<f64>(h, NaN, S0 + 40);
  store<f64>(h, NaN, S0 + 48);
  store<i32>(h, len, S0 + 60);
  return h;
}

export function rsi_next(h: usize, bar: i32, x: f64): f64 {
  begin(h, bar);
  const p = load<f64>(h, S0);
  store<f64>(h, x, S0);
  return rsiStep(h, Math.max(x - p, 0), Math.max(p - x, 0));
}

/** One rsi step from an up move and a down move (both na together when x or x[1] is na). */
export function rsiStep(h: usize, u: f64, d: f64): f64 {
  const len = load<i32>(h, S0 + 60);
  let ru = load<f64>(h, S0 + 40);
  let rd = load<f64>(h, S0 + 48);
  if (u == u && d == d && len > 0) {
    const cnt = load<i32>(h, S0 + 56);
    if (cnt < len) {
      seedAdd(h + S0 + 8, u);
      seedAdd(h + S0 + 24, d);
      store<i32>(h, cnt + 1, S0 + 56);
      if (cnt + 1 == len) {
        ru = seedSum(h + S0 + 8) / <f64>len;
        rd = seedSum(h + S0 + 24) / <f64>len;
      }
    } else {
      ru = (<f64>(len - 1) * ru + u) / <f64>len;
      rd = (<f64>(len - 1) * rd + d) / <f64>len;
    }
    store<f64>(h, ru, S0 + 40);
    store<f64>(h, rd, S0 + 48);
  }
  // an na move (na source now or on the bar before) is na, the averages untouched
  if (u != u || d != d || ru != ru || rd != rd) return NaN;
  if (rd == 0) return 100.0;
  if (ru == 0) return 0.0;
  return 100.0 - 100.0 / (1.0 + ru / rd);
}
