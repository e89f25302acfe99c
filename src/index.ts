// The library entry: the Runtime (the evaluate contract) and the language front end.
export * from "./core/result.js";
