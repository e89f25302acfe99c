// `resin run` (service.md 5): table output, --json, exit codes.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { command } from "../../src/cli/run.js";

const dir = mkdtempSync(join(tmpdir(), "resin-run-"));
const script = join(dir, "s.pine");
writeFileSync(script, "//@version=6\nindicator('demo')\nlen = input.int(2, 'Length')\nplot(close, 'c')\nplot(close - close[len], 'mom')\n");
const strat = join(dir, "st.pine");
writeFileSync(strat, "//@version=6\nstrategy('st')\nif bar_index % 4 == 0\n    strategy.entry('L', strategy.long)\nif bar_index % 4 == 2\n    strategy.close('L')\n");
const bad = join(dir, "bad.pine");
writeFileSync(bad, "//@version=6\nindicator('x')\nplot(nope)\n");
const csv = join(dir, "bars.csv");
writeFileSync(csv, "time,open,high,low,close,volume\n1700000000,1,2,0.5,1.5,10\n1700000060,1.5,2.5,1,2,11\n1700000120,2,3,1.5,2.5,12\n");

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe("resin run", () => {
  it("prints the last value of each plot with the mode (synthetic bars, default 20)", async () => {
    const { out } = capture();
    expect(await command([script])).toBe(0);
    const text = out.join("\n");
    expect(text).toMatch(/^c\s+plot\s+111$/m); // bar 19 of the synthetic bars closes at 111
    expect(text).toMatch(/^mom\s+plot\s+2$/m); // 111 - close of bar 17 (109)
    expect(text).toMatch(/20 bars, mode interpret/);
  });
  it("--json prints the full result only; --inputs and --bars apply", async () => {
    const { out } = capture();
    expect(await command([script, "--json", "--bars", "5", "--inputs", '{"Length": 1}'])).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.count).toBe(5);
    expect(r.inputs[0].value).toBe(1);
    expect(r.series.mom[1]).toBe(1);
  });
  it("--data reads CSV bars", async () => {
    const { out } = capture();
    expect(await command([script, "--data", csv, "--json"])).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.series.c).toEqual([1.5, 2, 2.5]);
  });
  it("prints the strategy summary", async () => {
    const { out } = capture();
    expect(await command([strat, "--bars", "12"])).toBe(0);
    expect(out.join("\n")).toMatch(/Closed trades/);
  });
  it("exit 1 on a script error, 2 on usage errors", async () => {
    const { err } = capture();
    expect(await command([bad])).toBe(1);
    expect(err.join("\n")).toMatch(/bad\.pine:3:\d+: check error: Undeclared identifier 'nope'/);
    expect(await command([])).toBe(2);
    expect(await command([script, "--bars", "x"])).toBe(2);
    expect(await command([script, "--frobnicate"])).toBe(2);
    expect(await command([join(dir, "missing.pine")])).toBe(2);
    expect(await command([script, "--mode", "warp"])).toBe(1);
  });
});
