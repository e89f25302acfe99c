// The library entry: the Runtime (the evaluate contract) and the language front end.
export * from "./core/result.js";
export { Runtime, evaluate, resolveMode } from "./runtime/index.js";
export { randomWalkBars, syntheticBars, type RandomWalkOptions } from "./runtime/synthetic.js";
export { parse, unparse } from "./lang/index.js";
export { check, CheckError } from "./check/index.js";
export { registry } from "./builtins/index.js";
export { CATALOG } from "./catalog/index.js";
