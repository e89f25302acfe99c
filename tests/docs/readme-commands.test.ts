// Every `node bin/resin.js ...` command of the README runs as written from the project root (the
// built CLI, as a user runs it) and exits 0; strategy runs close trades and optimize finds a best
// trial. `serve` is left out (it runs until stopped; tests/server covers it).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/data.js";
import { ensureDist } from "../server/dist.js";

/** The README's CLI commands: lines of its sh blocks starting with `node bin/resin.js`, comments cut. */
function readmeCommands(): string[] {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const out: string[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split("\n")) {
      const cmd = line.replace(/\s+#.*$/, "").trim();
      if (cmd.startsWith("node bin/resin.js ")) out.push(cmd);
    }
  }
  return out;
}

const commands = readmeCommands().filter((c) => !/^node bin\/resin\.js serve\b/.test(c));

describe("README commands", () => {
  beforeAll(() => ensureDist(), 120_000);

  it("has the commands this test expects (run, check, optimize)", () => {
    for (const sub of ["run", "check", "optimize"])
      expect(commands.some((c) => c.startsWith(`node bin/resin.js ${sub} `))).toBe(true);
  });

  it.each(commands)("%s", (cmd) => {
    const args = cmd.split(/\s+/).slice(1); // plain arguments only: no quotes in the README's commands
    const stdout = execFileSync(process.execPath, args, {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
      maxBuffer: 64 << 20,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const script = readFileSync(join(ROOT, args[2]!), "utf8");
    const isStrategy = /^strategy\(/m.test(script);
    if (args[1] === "optimize") {
      expect(stdout).toMatch(/^best #\d+: /m); // "best: none" when no trial traded
    } else if (args[1] === "run" && isStrategy) {
      const closed = args.includes("--json")
        ? (JSON.parse(stdout) as { strategy: { trades: unknown[] } }).strategy.trades.length
        : Number(/Closed trades\s+(\d+)/.exec(stdout)?.[1]);
      expect(closed).toBeGreaterThan(0);
    }
  });
});
