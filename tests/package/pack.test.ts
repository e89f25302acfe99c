// The package as published: `npm pack` of this tree, installed into an empty folder without the
// network, gives a working `resin` binary and library entry.
//
// What this proves: the tarball holds everything the binary and `import "resin"` need at run time
// (dist/, build/kernels.wasm, bin/), and its declared runtime dependencies are enough, at the
// versions the project's package-lock.json pins (the temporary folder gets a lockfile with the
// tarball plus the lock's non-dev entries, so `npm ci --offline` needs no registry metadata and takes
// every tarball from npm's cache, which installing this project filled). It does not prove that a
// fresh resolution of the dependency ranges against the registry works.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/data.js";
import { ensureDist } from "../server/dist.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const dir = mkdtempSync(join(tmpdir(), "resin-pack-"));
const app = join(dir, "app");

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

beforeAll(() => {
  ensureDist();
  // the tree is already built (npm test builds first): pack without running prepare again
  sh(npm, ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], ROOT);
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, any>;
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  const spec = `file:../${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name: "resin-pack-test", version: "1.0.0", dependencies: { resin: spec } },
    "node_modules/resin": {
      version: pkg.version,
      resolved: spec,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path.startsWith("node_modules/") && !entry.dev && !entry.devOptional) packages[path] = entry;
  execFileSync("mkdir", [app]);
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "resin-pack-test",
      version: "1.0.0",
      private: true,
      type: "module",
      dependencies: { resin: spec },
    }),
  );
  writeFileSync(
    join(app, "package-lock.json"),
    JSON.stringify({ name: "resin-pack-test", version: "1.0.0", lockfileVersion: 3, requires: true, packages }),
  );
  sh(npm, ["ci", "--offline", "--omit=dev", "--no-audit", "--no-fund"], app);
  writeFileSync(join(app, "t.pine"), '//@version=6\nindicator("t")\nplot(ta.sma(close, 3), "s")\n');
}, 300_000); // pack + an offline install of every runtime dependency: minutes on a loaded 2-core machine

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm pack, installed offline into an empty folder", () => {
  it("ships the built library, the kernels and the binaries, not the sources or tests", () => {
    const files = sh("tar", ["tzf", join(dir, readdirSync(dir).find((f) => f.endsWith(".tgz"))!)], dir).split("\n");
    for (const f of [
      "package/dist/index.js",
      "package/dist/index.d.ts",
      "package/build/kernels.wasm",
      "package/bin/resin.js",
      "package/LICENSE",
      "package/README.md",
    ])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith("package/src/") || f.startsWith("package/tests/"))).toBe(false);
  });

  it("the resin binary runs a script in both modes", () => {
    const bin = join(app, "node_modules", ".bin", "resin");
    for (const mode of ["interpret", "compile"]) {
      const r = JSON.parse(sh(bin, ["run", "t.pine", "--bars", "30", "--mode", mode, "--json"], app)) as {
        mode: string;
        count: number;
        series: { s: (number | null)[] };
      };
      expect(r.mode).toBe(mode);
      expect(r.count).toBe(30);
      expect(r.series.s[1]).toBeNull();
      expect(typeof r.series.s[29]).toBe("number");
    }
    expect(() => sh(bin, ["check", "t.pine"], app)).not.toThrow(); // exit 0: no diagnostics
  });

  it("the library entry imports and runs", () => {
    const out = sh(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `
      import { Runtime, randomWalkBars } from "resin";
      const r = await new Runtime().run('//@version=6\\nindicator("t")\\nplot(ta.ema(close, 5), "e")', randomWalkBars(50), { mode: "compile" });
      console.log(JSON.stringify({ mode: r.mode, error: r.error ?? null, last: r.series.e.at(-1) }));`,
      ],
      app,
    );
    const r = JSON.parse(out) as { mode: string; error: string | null; last: number };
    expect(r).toMatchObject({ mode: "compile", error: null });
    expect(Number.isFinite(r.last)).toBe(true);
  });
});
