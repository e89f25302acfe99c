import { defineConfig } from "vite";

// The chart app lives in web/; the runtime it runs in a Web Worker is imported from src/.
export default defineConfig({
  root: "web",
  base: "./",
  publicDir: "public",
  build: { outDir: "../dist-web", emptyOutDir: true, target: "es2022" },
  worker: { format: "es" },
  server: { fs: { allow: [".."] } },
});
