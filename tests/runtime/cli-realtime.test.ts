// `resin run --json` with the realtime flags (service.md 1.4): varip keeps every tick, var state and the
// contents of var collections roll back, so they commit what history commits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSubcommand } from "../../src/cli/index.js";

const command = (argv: string[]) => runSubcommand("run", argv);

const dir = mkdtempSync(join(tmpdir(), "resin-rt-"));
const script = join(dir, "rt.pine");
writeFileSync(
  script,
  "//@version=6\nindicator('rt')\nvar int bars = 0\nvarip int ticks = 0\nvar a = array.new<float>()\nbars += 1\nticks += 1\na.push(close)\nplot(bars, 'bars')\nplot(ticks, 'ticks')\nplot(a.size(), 'n')\n",
);

afterEach(() => vi.restoreAllMocks());

async function runJson(
  args: string[],
): Promise<{ code: number; r: { series: Record<string, number[]>; error?: string }; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  const code = await command([script, "--json", "--bars", "10", ...args]);
  return { code, r: code === 2 ? ({ series: {} } as never) : JSON.parse(out.join("")), err };
}

describe("resin run realtime flags", () => {
  it("--realtime-last-bar --realtime-ticks 3: varip counter at bars + 2, var counter and var array at bars", async () => {
    const { code, r } = await runJson(["--realtime-last-bar", "--realtime-ticks", "3"]);
    expect(code).toBe(0);
    expect(r.series.bars![9]).toBe(10);
    expect(r.series.n![9]).toBe(10);
    expect(r.series.ticks![9]).toBe(12);
  });
  it("--realtime-bars 2 --realtime-ticks=4: two realtime bars of 4 ticks", async () => {
    const { r } = await runJson(["--realtime-bars", "2", "--realtime-ticks=4"]);
    expect(r.series.ticks!.slice(7)).toEqual([8, 12, 16]);
    expect(r.series.n!.slice(7)).toEqual([8, 9, 10]);
  });
  it("--realtime-from-bar 8 --realtime-ticks 2", async () => {
    const { r } = await runJson(["--realtime-from-bar", "8", "--realtime-ticks", "2"]);
    expect(r.series.ticks!.slice(7)).toEqual([8, 10, 12]);
    expect(r.series.bars!.slice(7)).toEqual([8, 9, 10]);
  });
  it("rejects a bad count with exit code 2", async () => {
    const { code, err } = await runJson(["--realtime-ticks", "0"]);
    expect(code).toBe(2);
    expect(err.join("\n")).toMatch(/--realtime-ticks must be a positive integer/);
  });
});
