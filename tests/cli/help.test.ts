// `resin` on commander: help at every level, version, usage errors (exit 2) and lazy commands.

import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/index.js";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  return { out: () => out.join("\n"), err: () => err.join("\n") };
}

afterEach(() => vi.restoreAllMocks());

describe("resin", () => {
  it("--help lists every command; each command has its own help; no arguments is a usage error", async () => {
    const c = capture();
    expect(await main(["--help"])).toBe(0);
    for (const cmd of ["run", "check", "optimize", "serve", "bench", "coverage", "completion"])
      expect(c.out()).toContain(cmd);
    expect(c.out()).toContain("Examples:");
    expect(await main(["serve", "--help"])).toBe(0);
    expect(c.out()).toMatch(/Usage: resin serve \[options\][\s\S]*--cors <ORIGINS>[\s\S]*SVC_MAX_RUN_SECONDS/);
    expect(await main(["help", "optimize"])).toBe(0);
    expect(c.out()).toMatch(/--validation <M>/);
    expect(await main([])).toBe(2);
  });

  it("--version prints the version; unknown commands and options exit 2", async () => {
    const c = capture();
    expect(await main(["--version"])).toBe(0);
    expect(c.out()).toMatch(/^\d+\.\d+\.\d+/m);
    expect(await main(["frobnicate"])).toBe(2);
    expect(c.err()).toContain("unknown command 'frobnicate'");
    expect(await main(["serve", "--port", "99999"])).toBe(2);
    expect(c.err()).toContain("--port needs a number between 0 and 65535");
  });
});
