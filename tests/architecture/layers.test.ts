// The layering of docs/architecture.md, checked over the import lines of src/. The page's table lists the
// folders from the bottom layer up; a file may import from its own folder and from folders listed before
// it, never from one listed after it. The table is read from the page itself, so the page and this test
// cannot drift apart: a new folder gets a row there or this test names it.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Layer rank of each `src/<folder>` from the table of docs/architecture.md (a row may name several). */
function layerRanks(): Map<string, number> {
  const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const ranks = new Map<string, number>();
  let rank = 0;
  for (const line of page.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const firstCell = line.split("|")[1];
    const folders = [...firstCell.matchAll(/`src\/([a-z-]+)\/`/g)].map((m) => m[1]);
    if (folders.length === 0) continue;
    for (const folder of folders) ranks.set(folder, rank);
    rank++;
  }
  return ranks;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Relative module specifiers of a file: static imports and re-exports, `import type`, dynamic import(). */
function relativeImports(source: string): string[] {
  const specs: string[] = [];
  const patterns = [/\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g, /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) specs.push(m[1]);
  return specs;
}

const srcDir = join(ROOT, "src");
const ranks = layerRanks();
const topFolders = readdirSync(srcDir).filter((name) => statSync(join(srcDir, name)).isDirectory());

/** Every import of a file in `folder` that reaches a folder of a higher layer, as "file -> target". */
function upwardImports(folder: string): string[] {
  const own = ranks.get(folder)!;
  const found: string[] = [];
  for (const file of sourceFiles(join(srcDir, folder))) {
    for (const spec of relativeImports(readFileSync(file, "utf8"))) {
      const target = relative(srcDir, resolve(dirname(file), spec));
      const targetFolder = target.split(/[\\/]/)[0];
      const targetRank = ranks.get(targetFolder);
      if (targetRank !== undefined && targetRank > own) found.push(`${relative(ROOT, file)} -> src/${target}`);
    }
  }
  return found;
}

/**
 * Folders with known upward imports being removed, each with its reason: expected failures until then, so
 * the moment a folder is clean this test flips and the entry must go. Empty since issue #15 cleaned
 * strategy, check, builtins and interpret; keep it empty.
 */
const KNOWN_UPWARD: Record<string, string> = {};

describe("layers of docs/architecture.md", () => {
  it("names every folder of src/ in its table", () => {
    expect(topFolders.filter((f) => !ranks.has(f))).toEqual([]);
  });

  for (const folder of topFolders.filter((f) => ranks.has(f))) {
    const reason = KNOWN_UPWARD[folder];
    const check = () => expect(upwardImports(folder)).toEqual([]);
    if (reason) it.fails(`src/${folder} imports no higher layer (expected failure: ${reason})`, check);
    else it(`src/${folder} imports no higher layer`, check);
  }
});
