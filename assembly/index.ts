// Entry of build/kernels.wasm: re-exports every kernel module. Calls take plain numbers (state
// handles are byte offsets in this module's memory); see src/kernels/index.ts for the JS side.
export { heap_top, heap_set, out_ptr } from "./mem";
export * from "./avg";
export * from "./window";
export * from "./order";
export * from "./misc";
export { rsi_new, rsi_next } from "./osc";
export * from "./series";
export * from "./series-rec";
export * from "./series-hilo";
export * from "./series-step";
