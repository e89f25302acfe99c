// matrix.* builtins (being filled in): functions, variables, constants per ../types.ts.
import type { BuiltinTable, ConstantTable, VariableTable } from "../types.js";

export const functions: BuiltinTable = {};
export const variables: VariableTable = {};
export const constants: ConstantTable = {};
