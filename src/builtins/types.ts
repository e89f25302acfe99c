// The calling convention of builtins lives in src/catalog/contract.ts, below the checker (which keeps the
// registry's definitions in its resolved program) and the builtins; re-exported here for the namespaces.
export * from "../catalog/contract.js";
