// Stopping a dev server while its cron run is inside the worker: the run finishes with the worker's own
// outcome (stop waits for it, bounded by CRON_DRAIN_MS) and is never reported as an exception of the
// worker. Before, a run that fired as the server stopped read "exception" (workerd's fetch broken by
// the shutdown), which `resinctl dev start` printed as the cron's outcome.

import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";
import { loadConfig } from "../../src/ops/config.js";
import { LocalProvider } from "../../src/ops/provider-local.js";

const root = join(mkdtempSync(join(tmpdir(), "resinctl-cron-stop-")), "ws");
mkdirSync(root, { recursive: true });

it("a cron run in flight when the server stops ends with its own outcome", async () => {
  const code = await main(["onboard", "--preset", "standard", "--json"], {
    cwd: root,
    env: { SVC_HOME: join(root, "..", "home"), SVC_CLI_SILENT: "1" },
    stdout: () => undefined,
    stderr: () => undefined,
    isTTY: false,
    chdir: false,
    stdin: null,
  });
  expect(code).toBe(0);
  const local = new LocalProvider(root);
  const cfg = loadConfig(root).workers.resin!;
  const outcomes: string[] = [];
  let stoppedInFlight = 0;
  for (let round = 0; round < 3; round++) {
    const seen = outcomes.length;
    const dev = await local.startDev("resin", cfg, {
      port: 0,
      crons: ["* * * * * *"],
      onCron: (_cron, outcome) => outcomes.push(outcome),
    });
    // (one run first: the worker is warm, so the next run's moment is known to a few ms)
    for (let i = 0; i < 60 && outcomes.length === seen; i++) await new Promise((r) => setTimeout(r, 50));
    expect(outcomes.length).toBeGreaterThan(seen);
    // stop a few ms after the next whole second, when the per-second cron has just fired into the worker
    const runsBefore = dev.cronRuns;
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 3));
    const t0 = Date.now();
    await dev.stop();
    if (dev.cronRuns > runsBefore) stoppedInFlight++;
    expect(Date.now() - t0).toBeLessThan(15_000);
  }
  expect(outcomes.filter((o) => o !== "ok")).toEqual([]);
  // the stop landed on a run in flight at least once (else this test checked nothing)
  expect(stoppedInFlight).toBeGreaterThan(0);
}, 120_000);
