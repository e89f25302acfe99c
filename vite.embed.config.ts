import { defineConfig } from "vite";

// `resin/web` (web/src/embed): an ES module library with its runtime worker and kernels.wasm as files
// next to it (dist-embed/), found at run time from the module's own URL. Comlink and
// lightweight-charts are bundled in, so a page can import it without a bundler (docs/embedding.md).
export default defineConfig({
  publicDir: false,
  // asset URLs relative to the module (new URL("./assets/…", import.meta.url)), wherever it is served from
  base: "./",
  build: {
    outDir: "dist-embed",
    emptyOutDir: true,
    target: "es2022",
    // the wasm and the worker stay separate files (a data: URL would triple the module's size)
    assetsInlineLimit: 0,
    lib: { entry: "web/src/embed/index.ts", formats: ["es"], fileName: () => "resin-web.js" },
  },
  worker: { format: "es" },
});
