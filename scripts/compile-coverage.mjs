#!/usr/bin/env node
// How many scripts of the corpora really run compiled when asked for `auto` (issue 18 item 5), and
// why the others fall back: every script of tests/realworld/scripts (and tests/corpus) runs in auto
// on the real-world test's bars, once over history and once with its realtime pass (last 3 bars as
// realtime bars of 4 ticks), and the results are grouped by mode and compile_fallback_reason (names
// in quotes folded, so one construct is one row). Not a test and not timed: a table to re-run.
// Needs dist/ (npm run build:lib).
// Usage: node scripts/compile-coverage.mjs [--scripts] [--all]
//   --scripts  also list the scripts of each row that is not "compile"
//   --all      also the conformance scripts, the built-in strategies, bench/ and, when ../shared is
//              there, its PineForge strategies (on the same bars: only the backend is of interest)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";
import { Runtime } from "../dist/runtime/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const listScripts = process.argv.includes("--scripts");
const all = process.argv.includes("--all");

// the real-world test's own bars (tests/realworld/bars.ts), so the table describes what that test runs
const barsTs = readFileSync(join(root, "tests/realworld/bars.ts"), "utf8");
const { code } = await transform(barsTs, { loader: "ts", format: "esm" });
const { randomWalkBars } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
const BARS = randomWalkBars(1500, 42);

const CORPORA = [
  ["tests/realworld/scripts", "real-world"],
  ["tests/corpus", "tests/corpus"],
  ...(all
    ? [
        ["tests/conformance", "tests/conformance"],
        ["tests/strategy/builtin-scripts", "built-in strategies"],
        ["bench", "bench"],
        ["../shared/conformance/pineforge", "../shared PineForge"],
      ]
    : []),
].filter(([dir]) => existsSync(join(root, dir)));

/** The .pine files under dir (nested folders too), as paths relative to it. */
function pineFiles(dir, prefix = "") {
  const out = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...pineFiles(dir, rel));
    else if (e.name.endsWith(".pine")) out.push(rel);
  }
  return out.sort();
}
const PASSES = [
  ["history", {}],
  ["realtime (3 bars x 4 ticks)", { realtimeBars: 3, realtimeTicks: 4 }],
];

/** One row per construct: quoted names and numbers folded. */
function fold(reason) {
  return reason
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, "N");
}

const rt = new Runtime("CHART", { timeframe: "60" });
for (const [dir, name] of CORPORA) {
  const files = pineFiles(join(root, dir));
  for (const [pass, opts] of PASSES) {
    const rows = new Map();
    let compiled = 0;
    for (const f of files) {
      const src = readFileSync(join(root, dir, f), "utf8");
      const r = await rt.run(src, BARS, { mode: "auto", ...opts });
      let key;
      if (r.mode === "compile") {
        compiled++;
        key = r.error !== undefined ? `compile (error: ${r.error_kind})` : "compile";
      } else if (r.compile_fallback_reason !== undefined) key = `interpret: ${fold(r.compile_fallback_reason)}`;
      else key = `stopped before a backend (error: ${r.error_kind ?? "none"})`;
      const row = rows.get(key) ?? [];
      row.push(f);
      rows.set(key, row);
    }
    console.log(`\n${name}, ${pass}: ${compiled} of ${files.length} ran compiled\n`);
    console.log("| result in auto | scripts |");
    console.log("| --- | ---: |");
    for (const [key, fs] of [...rows].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`| ${key.replace(/\|/g, "\\|")} | ${fs.length} |`);
    }
    if (listScripts)
      for (const [key, fs] of rows) if (key !== "compile") console.log(`\n${key}:\n  ${fs.join("\n  ")}`);
  }
}
