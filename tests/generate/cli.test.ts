// `resin generate`: the script on stdout and the verification report on stderr, --out, --json (the
// answer or the coded error, nothing else on stdout), exit codes 0 / 1 (nothing verified) / 2 (usage).
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runSubcommand } from "../../src/cli/index.js";

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
  delete process.env.RESIN_LLM_BASE_URL;
  delete process.env.RESIN_LLM_MODEL;
});
afterEach(() => vi.restoreAllMocks());

describe("resin generate", () => {
  it("prints the verified script on stdout and the report on stderr", async () => {
    expect(await runSubcommand("generate", ["rsi<30 buy, >70 sell, 2% stop"])).toBe(0);
    expect(out.join("")).toMatch(/^\/\/@version=6\nstrategy\("RSI 30 Strategy"/);
    expect(err.join("\n")).toMatch(
      /^verified \(offline, round 1\): parses, checks, runs, modes agree, strategy, trades, stop exit$/m,
    );
  });

  it("writes --out; a request with words it cannot place writes nothing and names them", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "resin-gen-")), "s.pine");
    expect(await runSubcommand("generate", ["ema 9/21 cross, 1% stop", "--out", file])).toBe(0);
    expect(readFileSync(file, "utf8")).toMatch(/ta\.crossover\(ema9, ema21\)/);
    expect(out.join("\n")).toMatch(/wrote .*s\.pine/);
    const other = join(mkdtempSync(join(tmpdir(), "resin-gen-")), "t.pine");
    expect(await runSubcommand("generate", ["ema 9/21 cross, skip fomc days", "--out", other])).toBe(1);
    expect(existsSync(other)).toBe(false);
    expect(err.join("\n")).toMatch(/not understood: .*fomc/);
  });

  it("--json prints the answer, or the coded error with exit 1", async () => {
    expect(await runSubcommand("generate", ["macd cross long and short", "--json"])).toBe(0);
    const ok = JSON.parse(out.join(""));
    expect(ok).toMatchObject({ status: "success", backend: "offline", rounds: 1 });
    out = [];
    expect(await runSubcommand("generate", ["tell me a joke", "--json"])).toBe(1);
    expect(JSON.parse(out.join(""))).toMatchObject({ status: "error", code: "NOT_UNDERSTOOD" });
  });

  it("exits 2 on usage errors: an unknown backend, llm without configuration", async () => {
    expect(await runSubcommand("generate", ["rsi<30 buy", "--backend", "magic"])).toBe(2);
    expect(err.join("\n")).toMatch(/--backend must be offline or llm/);
    expect(await runSubcommand("generate", ["rsi<30 buy", "--backend", "llm"])).toBe(2);
    expect(err.join("\n")).toMatch(/RESIN_LLM_BASE_URL/);
    expect(await runSubcommand("generate", [])).toBe(2);
  });
});
