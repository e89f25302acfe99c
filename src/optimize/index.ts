// The optimize module: one implementation for /optimize, `resin optimize` and the chart app.
export * from "./errors.js";
export * from "./prng.js";
export * from "./space.js";
export * from "./samplers.js";
export * from "./tpe.js";
export * from "./stats.js";
export * from "./validation.js";
export * from "./bars.js";
export * from "./study.js";
export * from "./inputs-space.js";
export * from "./study-types.js";
export * from "./trial-eval.js";
export * from "./driver.js";
