// `resin check`: compiler-style diagnostics and exit codes (0 clean, 1 errors, 2 usage).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatDiagnostics } from "../../src/cli/check.js";
import { runSubcommand } from "../../src/cli/index.js";
import { checkSource } from "../../src/lang/index.js";

const command = (argv: string[]) => runSubcommand("check", argv);

const dir = mkdtempSync(join(tmpdir(), "resin-check-"));
function script(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
});
afterEach(() => vi.restoreAllMocks());

describe("resin check", () => {
  it("exits 0 and prints no diagnostics for a clean script", async () => {
    const f = script("ok.pine", '//@version=6\nindicator("ok")\nplot(close)\n');
    expect(await command([f])).toBe(0);
    expect(out).toEqual([]);
    expect(err.join("\n")).toContain("0 errors, 0 warnings");
  });

  it("exits 1 and prints file:line:col, the line and a caret", async () => {
    const f = script("bad.pine", '//@version=6\nindicator("bad")\nx = close & open\ny = (1 +\n');
    expect(await command([f])).toBe(1);
    const text = out.join("\n").split("\n");
    expect(text[0]).toBe(
      `${f}:3:11: error: Pine has no bitwise operators ('&'); use 'and', 'or', 'not' for logic [P1008]`,
    );
    expect(text[1]).toBe("x = close & open");
    expect(text[2]).toBe("          ^");
    expect(text[3]).toMatch(
      new RegExp(
        `^${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:9: error: Mismatched input end of line expecting an expression`,
      ),
    );
    expect(err.join("\n")).toContain("2 errors");
  });

  it("exits 0 on warnings only", async () => {
    const f = script("warn.pine", 'indicator("no version")\n');
    expect(await command([f])).toBe(0);
    expect(out.join("\n")).toContain(":1:1: warning: No //@version annotation");
  });

  it("prints JSON with --json", async () => {
    const f = script("json.pine", "//@version=6\nx = 0x10\n");
    expect(await command([f, "--json"])).toBe(1);
    expect(JSON.parse(out.join("\n"))).toEqual([
      {
        severity: "error",
        message: expect.stringContaining("Hexadecimal"),
        line: 2,
        column: 5,
        end_line: 2,
        end_column: 9,
        code: "P1006",
      },
    ]);
  });

  it("exits 2 on a missing file argument, an unreadable file or an unknown option", async () => {
    expect(await command([])).toBe(2);
    expect(err.join("\n")).toContain("missing required argument 'script'");
    expect(await command([join(dir, "nope.pine")])).toBe(2);
    expect(err.join("\n")).toContain("cannot read");
    expect(await command(["--frobnicate", "x.pine"])).toBe(2);
  });

  it("runs the semantic checker after a clean parse, unless --syntax-only", async () => {
    const f = script("sem.pine", '//@version=6\nindicator("sem")\nundeclared := 1\nplot(close)\n');
    expect(await command([f])).toBe(1);
    expect(out.join("\n")).toMatch(/:3:1: error: .*undeclared/);
    out.length = 0;
    expect(await command([f, "--syntax-only"])).toBe(0);
    expect(out).toEqual([]);
  });

  it("--help exits 0", async () => {
    expect(await command(["--help"])).toBe(0);
    expect(out.join("\n")).toContain("Usage: resin check");
  });

  it("keeps tabs in the caret line so it lines up", () => {
    const src = "//@version=6\nif a\n\tx = 1 &\n";
    const text = formatDiagnostics("t.pine", src, checkSource(src).diagnostics);
    expect(text.split("\n").slice(1, 3)).toEqual(["\tx = 1 &", "\t      ^"]);
  });
});
