// Entry of build/kernels.wasm: re-exports every kernel module.
export function _probe(a: f64, b: f64): f64 {
  return a + b;
}
