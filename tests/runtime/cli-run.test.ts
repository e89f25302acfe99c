// `resin run` (service.md 5): table output, --json, exit codes.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSubcommand } from "../../src/cli/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";

const command = (argv: string[]) => runSubcommand("run", argv);

const dir = mkdtempSync(join(tmpdir(), "resin-run-"));
const script = join(dir, "s.pine");
writeFileSync(
  script,
  "//@version=6\nindicator('demo')\nlen = input.int(2, 'Length')\nplot(close, 'c')\nplot(close - close[len], 'mom')\n",
);
const strat = join(dir, "st.pine");
writeFileSync(
  strat,
  "//@version=6\nstrategy('st')\nif bar_index % 4 == 0\n    strategy.entry('L', strategy.long)\nif bar_index % 4 == 2\n    strategy.close('L')\n",
);
const bad = join(dir, "bad.pine");
writeFileSync(bad, "//@version=6\nindicator('x')\nplot(nope)\n");
const csv = join(dir, "bars.csv");
writeFileSync(
  csv,
  "time,open,high,low,close,volume\n1700000000,1,2,0.5,1.5,10\n1700000060,1.5,2.5,1,2,11\n1700000120,2,3,1.5,2.5,12\n",
);

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
  it("prints the last value of each plot with the mode (seeded random-walk bars, default 20)", async () => {
    const { out } = capture();
    expect(await command([script])).toBe(0);
    const text = out.join("\n");
    const walk = randomWalkBars(20);
    const shown = (name: string): number => Number(new RegExp(`^${name}\\s+plot\\s+(\\S+)$`, "m").exec(text)?.[1]);
    expect(shown("c")).toBeCloseTo(walk[19]!.close, 2); // bar 19's close
    expect(shown("mom")).toBeCloseTo(walk[19]!.close - walk[17]!.close, 2);
    expect(text).toMatch(/20 bars, mode interpret/);
  });
  it("--json prints the full result only; --inputs and --bars apply", async () => {
    const { out } = capture();
    expect(await command([script, "--json", "--bars", "5", "--inputs", '{"Length": 1}'])).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.count).toBe(5);
    expect(r.inputs[0].value).toBe(1);
    const walk = randomWalkBars(5);
    expect(r.series.mom[1]).toBe(walk[1]!.close - walk[0]!.close); // Length 1: close - close[1]
  });
  it("--data reads CSV bars", async () => {
    const { out } = capture();
    expect(await command([script, "--data", csv, "--json"])).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.series.c).toEqual([1.5, 2, 2.5]);
  });
  it("--time-unit: a file mixing seconds and milliseconds is refused naming its row unless the unit is given", async () => {
    const mixed = join(dir, "mixed.csv");
    writeFileSync(mixed, "time,open,high,low,close,volume\n1700000000,1,2,0.5,1.5,10\n1700000060000,1.5,2.5,1,2,11\n");
    const { out, err } = capture();
    expect(await command([script, "--data", mixed, "--json"])).toBe(1);
    expect(err.join("\n")).toMatch(/mixed\.csv:3: .*(second|millisecond)/i);
    expect(await command([script, "--data", csv, "--json", "--time-unit", "s"])).toBe(0);
    expect(JSON.parse(out.join("")).series.c).toEqual([1.5, 2, 2.5]);
    expect(await command([script, "--data", csv, "--time-unit", "minutes"])).toBe(2);
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

  it("--data-feed passes other symbols' bars (seconds or ms, rows or columns) to request.*", async () => {
    const sec = join(dir, "sec.pine");
    writeFileSync(sec, '//@version=6\nindicator("sec")\nplot(request.security("X:OTHER", "1", close), "other")\n');
    const feed = join(dir, "feed.json");
    const rows = [0, 60, 120].map((d, i) => ({
      time: 1700000000 + d,
      open: 100,
      high: 400,
      low: 50,
      close: 100 * (i + 1),
    }));
    writeFileSync(feed, JSON.stringify({ "X:OTHER|1": rows }));
    const { out } = capture();
    expect(await command([sec, "--data", csv, "--data-feed", feed, "--json"])).toBe(0);
    expect(JSON.parse(out.join("")).series.other).toEqual([100, 200, 300]);
    // the same bars as ms columns under the bare symbol
    const cols = {
      time: rows.map((r) => r.time * 1000),
      open: rows.map((r) => r.open),
      high: rows.map((r) => r.high),
      low: rows.map((r) => r.low),
      close: rows.map((r) => r.close),
    };
    writeFileSync(feed, JSON.stringify({ "X:OTHER": cols }));
    out.length = 0;
    expect(await command([sec, "--data", csv, "--data-feed", feed, "--json"])).toBe(0);
    expect(JSON.parse(out.join("")).series.other).toEqual([100, 200, 300]);
  });
  it("--data-feed errors name the file and the key; --help documents it", async () => {
    const { out, err } = capture();
    const feed = join(dir, "bad-feed.json");
    for (const [doc, msg] of [
      ["[1, 2]", /bad-feed\.json: expected a JSON object/],
      ["{", /bad-feed\.json: not JSON/],
      [JSON.stringify({ "X:Y|banana": [] }), /key "X:Y\|banana": "banana" is not a timeframe/],
      [
        JSON.stringify({ "X:Y": [{ time: 1, open: 1, high: 0, low: 2, close: 1 }] }),
        /"X:Y": bar 0: high 0 is below low 2/,
      ],
    ] as [string, RegExp][]) {
      writeFileSync(feed, doc);
      err.length = 0;
      expect(await command([script, "--data-feed", feed])).toBe(1);
      expect(err.join("\n")).toMatch(msg);
    }
    expect(await command([script, "--data-feed", join(dir, "none.json")])).toBe(2);
    expect(await command(["--help"])).toBe(0);
    expect(out.join("\n")).toMatch(/--data-feed <FILE>[\s\S]*"SYMBOL\|TF"/);
  });
});
