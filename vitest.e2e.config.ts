import { defineConfig } from "vitest/config";

// End-to-end: Playwright drives the built chart app (dist-web/) served by `resin serve --app`
// (dist/). One file at a time in one fork: each spec starts its own server and Chromium.
export default defineConfig({
  test: {
    include: ["e2e/**/*.spec.ts", "e2e/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
