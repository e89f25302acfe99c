// The ta.* namespace: 59 functions and 10 variables, each a per-call-site state machine in the
// run's WASM kernel instance (ctx.kernels, see src/kernels/index.ts).
import type { BuiltinTable } from "../types.js";
import { averages } from "./averages.js";
import { oscillators } from "./oscillators.js";
import { windows } from "./windows.js";
import { volumeFunctions } from "./volume.js";

export { variables } from "./volume.js";

export const functions: BuiltinTable = { ...averages, ...oscillators, ...windows, ...volumeFunctions };

export const constants = {};
