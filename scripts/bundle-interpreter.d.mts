/** The interpreter's modules each copy has its own instance of (bundle-interpreter.mjs). */
export declare const COPIED_MODULES: string[];
/** The copy's text bundled from `entry` (compiler.js in dist, compiler.ts in src) and the imports it leaves to its `require`. */
export declare function bundleInterpreterCopy(entry: string): Promise<{ text: string; externals: string[] }>;
