// Output never cut (issue 16.5): a multi-megabyte `resin run --json` piped into another process
// arrives whole. bin/resin.js sets process.exitCode instead of calling process.exit(), which used
// to end the process before piped stdout drained (64-128 KiB arrived).

import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureDist, ROOT } from "../server/dist.js";

beforeAll(() => ensureDist(), 180_000);

/** Runs `producer | consumer` as two child processes joined by a pipe; resolves with the consumer's stdout and both exit codes. */
function pipe(producer: string[], consumer: string[]): Promise<{ out: string; codes: [number | null, number | null] }> {
  return new Promise((resolve, reject) => {
    const a = spawn(process.execPath, producer, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const b = spawn(process.execPath, consumer, { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    a.stdout.pipe(b.stdin);
    let out = "";
    b.stdout.on("data", (d) => (out += d));
    const codes: [number | null, number | null] = [null, null];
    let left = 2;
    const done = (): void => void (--left === 0 && resolve({ out, codes }));
    a.on("exit", (c) => ((codes[0] = c), done()));
    b.on("exit", (c) => ((codes[1] = c), done()));
    a.on("error", reject);
    b.on("error", reject);
  });
}

// A slow reader: it reads in small pieces with pauses, so the pipe is full while resin finishes.
const SLOW_READER = `
let n = 0; const chunks = [];
process.stdin.on("readable", function read() {
  let c; while ((c = process.stdin.read(16384)) !== null) { chunks.push(c); n += c.length; process.stdin.pause(); setTimeout(() => process.stdin.resume(), 1); }
});
process.stdin.on("end", () => { const r = JSON.parse(Buffer.concat(chunks).toString("utf8")); console.log(JSON.stringify({ bytes: n, count: r.count, last: r.series.c.at(-1), plots: Object.keys(r.series).length })); });
`;

describe("resin run --json through a pipe", () => {
  it("a multi-megabyte result arrives whole and parses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "resin-pipe-"));
    const script = join(dir, "wide.pine");
    writeFileSync(
      script,
      '//@version=6\nindicator("wide")\nplot(close, "c")\nplot(open, "o")\nplot(high, "h")\nplot(low, "l")\n',
    );
    const { out, codes } = await pipe(
      [join(ROOT, "bin", "resin.js"), "run", script, "--bars", "80000", "--json"],
      ["-e", SLOW_READER],
    );
    expect(codes).toEqual([0, 0]);
    const summary = JSON.parse(out);
    expect(summary.bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(summary).toMatchObject({ count: 80000, plots: 4 });
    expect(typeof summary.last).toBe("number");
  }, 120_000);
});
