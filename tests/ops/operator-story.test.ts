// The operator's story of issue 21 in one pass, as ops-cli.md tells it and an operator types it:
// onboard an empty directory -> deploy all -> dev start (workerd, crons on a schedule) -> script
// deploy -> ingest -> the bar-close cron fires by itself and its orders reach the trade service ->
// monitor trades -> kill switch on (the next bar's orders are halted) -> deploy history/rollback ->
// db query -> logs -> backup and restore. Each command's own cases live in cli/groups/rough-edges;
// this checks that they compose: the state one command leaves is what the next one finds.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";

interface Out {
  code: number;
  out: string;
  err: string;
  // command payloads, checked field by field below
  json: any;
}

function ctlIn(root: string, env: Record<string, string>) {
  return async (argv: string[], onOut?: (chunk: string) => void): Promise<Out> => {
    let out = "";
    let err = "";
    const code = await main(argv, {
      cwd: root,
      env: { SVC_CLI_SILENT: "1", ...env },
      stdout: (s) => {
        out += s;
        onOut?.(s);
      },
      stderr: (s) => void (err += s),
      isTTY: false,
      chdir: false,
      stdin: null,
    });
    let json: unknown = null;
    try {
      json = JSON.parse(out.trim().split("\n").pop() ?? "");
    } catch {
      json = null;
    }
    return { code, out, err, json };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Minute bars from `from`, rising (so the strategy's condition holds on each new bar). */
function bars(from: number, n: number, t0 = 1_700_000_000_000) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return { time: t0 + i * 60_000, open: 100 + i, high: 101 + i, low: 99 + i, close: 100.5 + i, volume: 1 };
  });
}

describe("the operator story, end to end on the local provider", () => {
  it("onboard -> deploy -> dev start -> script -> scheduled cron -> trades -> kill switch -> rollback -> db -> logs -> backup/restore", async () => {
    const base = mkdtempSync(join(tmpdir(), "resinctl-story-"));
    const root = join(base, "desk");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(root);
    const ctl = ctlIn(root, { SVC_HOME: join(base, "home") });

    const onboard = await ctl(["onboard", "--preset", "standard", "--json"]);
    expect(onboard.code, onboard.out + onboard.err).toBe(0);
    // crons every 2 seconds (croner's seconds field), so the schedule is seen within the test
    expect((await ctl(["config", "set", "crons", "*/2 * * * * *"])).code).toBe(0);

    const deployed = await ctl(["deploy", "all", "--json"]);
    expect(deployed.code, deployed.out + deployed.err).toBe(0);

    // dev start in the foreground for a bounded time; the rest of the story runs while it serves
    let listening: (v: unknown) => void = () => undefined;
    const up = new Promise((res) => (listening = res));
    const dev = ctl(["dev", "start", "--port", "0", "--for", "50", "--json"], (chunk) => {
      if (chunk.includes('"listening"')) listening(JSON.parse(chunk.trim().split("\n")[0]!));
    });
    const started = (await Promise.race([up, dev.then((r) => ({ exited: r }))])) as {
      workers?: { worker: string; url: string }[];
      exited?: Out;
    };
    expect(started.exited, JSON.stringify(started.exited)).toBeUndefined();
    expect(started.workers!.map((w) => w.worker)).toContain("resin");

    let backup = "";
    try {
      expect((await ctl(["script", "health", "--json"])).json).toMatchObject({ health: { status: "ok" } });

      // a strategy that buys one unit on every bar it sees closing up
      const file = join(root, "up.pine");
      writeFileSync(file, '//@version=6\nstrategy("up")\nif close > open\n    strategy.order("b", strategy.long, 1)\n');
      const stored = await ctl(["script", "scripts", "deploy", file, "--id", "up", "--json"]);
      expect(stored.code, stored.out + stored.err).toBe(0);
      const jobsFile = join(root, "jobs.json");
      writeFileSync(jobsFile, JSON.stringify([{ id: "up", script_id: "up", symbol: "DESK", timeframe: "1" }]));
      const jobs = await ctl(["script", "cron", "jobs", "--set", jobsFile, "--json"]);
      expect(jobs.json?.jobs, jobs.out + jobs.err).toHaveLength(1);

      const barsFile = join(root, "bars.json");
      writeFileSync(barsFile, JSON.stringify(bars(0, 5)));
      const ing = await ctl(["script", "ingest", "--symbol", "DESK", "--timeframe", "1", "--data", barsFile, "--json"]);
      expect(ing.code, ing.out + ing.err).toBe(0);

      // the schedule runs the job by itself: its order reaches the trade service
      let placed: { status: string; symbol: string }[] = [];
      for (let i = 0; i < 40 && placed.length === 0; i++) {
        await sleep(500);
        placed = ((await ctl(["monitor", "trades", "20", "--json"])).json?.trades ?? []).filter(
          (t: { status: string }) => t.status === "placed",
        );
      }
      expect(placed.length).toBeGreaterThan(0);
      expect(placed[0]).toMatchObject({ symbol: "DESK", side: "buy" });
      const placedBefore = placed.length;

      // kill switch on: the next bar's order is halted, not placed
      expect((await ctl(["monitor", "kill-switch", "on", "--json"])).json).toMatchObject({ on: true });
      writeFileSync(barsFile, JSON.stringify(bars(5, 1)));
      expect((await ctl(["script", "ingest", "--symbol", "DESK", "--timeframe", "1", "--data", barsFile])).code).toBe(
        0,
      );
      let trades: { status: string }[] = [];
      for (let i = 0; i < 40; i++) {
        await sleep(500);
        trades = (await ctl(["monitor", "trades", "20", "--json"])).json?.trades ?? [];
        if (trades.some((t) => t.status !== "placed")) break;
      }
      expect(trades.filter((t) => t.status === "placed")).toHaveLength(placedBefore);
      expect(trades.some((t) => t.status === "halted" || t.status === "refused")).toBe(true);
      expect((await ctl(["monitor", "kill-switch", "off", "--json"])).json).toMatchObject({ on: false });

      // a second deploy, then back to the first: history says which is current
      expect((await ctl(["deploy", "worker", "resin", "--json"])).json).toMatchObject({ version: 2 });
      const back = await ctl(["deploy", "rollback", "resin", "1", "--json"]);
      expect(back.code, back.out + back.err).toBe(0);
      const hist = await ctl(["deploy", "history", "resin", "--json"]);
      expect(hist.json.versions.find((v: { current: boolean }) => v.current)).toMatchObject({ version: 1 });

      // the SQL schema onboarding applied is queryable
      const q = await ctl(["db", "query", "SELECT name FROM sqlite_master WHERE type = 'table'", "--json"]);
      expect(q.code, q.out + q.err).toBe(0);
      expect(JSON.stringify(q.json)).toMatch(/"name"/);

      // the workers' console output was captured
      const logs = await ctl(["logs", "worker", "resin", "--json"]);
      expect(logs.code, logs.out + logs.err).toBe(0);
      expect(JSON.stringify(logs.json).length).toBeGreaterThan(50);

      // a backup while the workers run
      backup = (await ctl(["monitor", "backup", "--json"])).json?.file;
      expect(backup).toBeTruthy();
    } finally {
      const stopped = await dev;
      expect(stopped.code, stopped.out + stopped.err).toBe(0);
      // the schedule ran on its own (no `script cron run` was typed)
      expect(stopped.json?.cron_runs).toBeGreaterThan(0);
    }
    // restoring needs the workers stopped (they hold the stores open): refused while they run, done now
    const r = await ctl(["monitor", "backup", "--restore", backup, "--yes", "--json"]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.json.entries).toBeGreaterThan(0);
  }, 180_000);
});
