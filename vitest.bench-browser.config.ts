import { defineConfig } from "vitest/config";

// Browser benchmarks (`npm run bench:browser-optimize`): like the e2e run (the built chart app served by
// `resin serve --app`, Debian Chromium via playwright-core) but they print figures and are not part of
// `npm run test:e2e`.
export default defineConfig({
  test: {
    include: ["e2e/bench/**/*.bench.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
