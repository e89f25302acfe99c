// Workspace resolution (ops-cli.md "Global behaviour"): 1) SVC_REPO; 2) walk up from the cwd for the
// markers (the project's package.json plus one of: resinctl.toml, resinctl.toml.example, workers/,
// .gitmodules); 3) the remembered path in <home>/config/monorepo.json; 4) the global clone
// <home>/repo. <home> is SVC_HOME or ~/.resinctl.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CtlError, EXIT } from "./errors.js";

export const CONFIG_FILE = "resinctl.toml";
export type WorkspaceSource = "env" | "cwd" | "remembered" | "global" | "new" | "none";

export interface Workspace {
  root: string | null;
  source: WorkspaceSource;
  remembered: string | null;
  home: string;
}

export function ctlHome(env: Record<string, string | undefined>): string {
  return env.SVC_HOME ? resolve(env.SVC_HOME) : join(homedir(), ".resinctl");
}

export function isWorkspace(dir: string): boolean {
  const pkg = join(dir, "package.json");
  if (!existsSync(pkg)) return false;
  try {
    const doc = JSON.parse(readFileSync(pkg, "utf8")) as {
      name?: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    // The resin checkout itself, or a deployment project that depends on resin (made by onboard).
    if (doc.name !== "resin" && !doc.dependencies?.resin && !doc.devDependencies?.resin) return false;
  } catch {
    return false;
  }
  return [CONFIG_FILE, `${CONFIG_FILE}.example`, "workers", ".gitmodules"].some((m) => existsSync(join(dir, m)));
}

function rememberedPath(home: string): string | null {
  try {
    const doc = JSON.parse(readFileSync(join(home, "config", "monorepo.json"), "utf8")) as { root?: string };
    return typeof doc.root === "string" ? doc.root : null;
  } catch {
    return null;
  }
}

export function remember(home: string, root: string): void {
  const dir = join(home, "config");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = join(dir, "monorepo.json");
  writeFileSync(file, `${JSON.stringify({ root, updatedAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function resolveWorkspace(env: Record<string, string | undefined>, cwd: string): Workspace {
  const home = ctlHome(env);
  const remembered = rememberedPath(home);
  if (env.SVC_REPO !== undefined && env.SVC_REPO !== "") {
    const repo = env.SVC_REPO;
    const bad = !isAbsolute(repo)
      ? "is not an absolute path"
      : !existsSync(repo)
        ? "does not exist"
        : !isWorkspace(repo)
          ? "is not a resin workspace (package.json plus resinctl.toml, its .example, workers/ or .gitmodules)"
          : null;
    if (bad)
      throw new CtlError("WORKSPACE_INVALID", `SVC_REPO '${repo}' ${bad}`, {
        exit: EXIT.USAGE,
        hint: "set SVC_REPO to the absolute path of a workspace, or unset it to search from the current directory",
      });
    return { root: resolve(repo), source: "env", remembered, home };
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (isWorkspace(dir)) return { root: dir, source: "cwd", remembered, home };
    if (dirname(dir) === dir) break;
  }
  if (remembered && isWorkspace(remembered)) return { root: remembered, source: "remembered", remembered, home };
  const global = join(home, "repo");
  if (isWorkspace(global)) return { root: global, source: "global", remembered, home };
  return { root: null, source: "none", remembered, home };
}
