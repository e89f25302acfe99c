// What every resinctl command handler gets: workspace, flags, output, provider and stores.

import { resolve } from "node:path";
import { CtlError, EXIT } from "./errors.js";
import { loadConfig, type CtlConfig } from "./config.js";
import type { OutputOptions } from "./output.js";
import { CloudflareProvider, type ProcessRunner } from "./provider-cloudflare.js";
import { LocalProvider } from "./provider-local.js";
import { SecretStore } from "./secrets.js";
import type { Workspace } from "./workspace.js";

/** What commander parsed for one command: its positional arguments and its options (camelCase keys). */
export interface Inv {
  args: string[];
  opts: Record<string, string | number | boolean | undefined>;
}

export interface Flags {
  json: boolean;
  quiet: boolean;
  yes: boolean;
  help: boolean;
}

export interface CmdResult {
  /** The --json body (merged into {success: true, ...}). */
  data?: Record<string, unknown>;
  /** Human output. */
  text?: string;
  /** Footer suggestion. */
  next?: string;
  /** Exit code when not 0 (a check that found problems). */
  exit?: number;
}

/** Questions on the terminal (onboarding, init's wizard, the menu, secret values); the default is
 * @clack/prompts, tests inject answers. */
export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** The chosen value, or null when the user cancels. */
  select(message: string, choices: readonly string[]): Promise<string | null>;
  /** Free text (null on cancel). */
  text(message: string, initial?: string): Promise<string | null>;
  /** Masked input (null on cancel). */
  password(message: string): Promise<string | null>;
}

/** What the invocation brings besides argv: the caller's directory, stdin, a terminal. */
export interface Session {
  /** The directory resinctl was started in (relative paths resolve against it, not the workspace). */
  cwd: string;
  isTTY: boolean;
  /** All of stdin, or null when stdin is a terminal (nothing piped). */
  readStdin(): Promise<string | null>;
  prompter?: Prompter;
}

export interface Ctx {
  ws: Workspace;
  session: Session;
  /** `path` resolved against the caller's cwd. */
  resolvePath(path: string): string;
  env: Record<string, string | undefined>;
  flags: Flags;
  out: OutputOptions;
  fetch: typeof fetch;
  runProcess?: ProcessRunner;
  /** The workspace root; a CtlError when none was found. */
  root(): string;
  config(): CtlConfig;
  providerName(): "local" | "cloudflare";
  local(): LocalProvider;
  cloudflare(): CloudflareProvider;
  secrets(): SecretStore;
}

export function createCtx(
  ws: Workspace,
  session: Session,
  env: Record<string, string | undefined>,
  flags: Flags,
  out: OutputOptions,
  fetchImpl: typeof fetch,
  runProcess?: ProcessRunner,
): Ctx {
  const root = (): string => {
    if (!ws.root) {
      throw new CtlError("NO_WORKSPACE", "no resin workspace found", {
        exit: EXIT.USAGE,
        hint: "run inside the resin checkout (package.json + resinctl.toml), or set SVC_REPO to its absolute path",
        suggestions: ["resinctl doctor", "SVC_REPO=/path/to/resin resinctl init"],
      });
    }
    return ws.root;
  };
  return {
    ws,
    session,
    resolvePath: (p) => resolve(session.cwd, p),
    env,
    flags,
    out,
    fetch: fetchImpl,
    ...(runProcess ? { runProcess } : {}),
    root,
    config: () => loadConfig(root()),
    providerName: () => {
      const p = env.SVC_PROVIDER;
      if (p === "local" || p === "cloudflare") return p;
      if (p) throw new CtlError("USAGE", `SVC_PROVIDER must be local or cloudflare (got '${p}')`, { exit: EXIT.USAGE });
      if (ws.root) return loadConfig(ws.root).provider;
      return env.CLOUDFLARE_API_TOKEN && env.CLOUDFLARE_ACCOUNT_ID ? "cloudflare" : "local";
    },
    local: () => new LocalProvider(root()),
    cloudflare: () =>
      new CloudflareProvider({
        ...(runProcess ? { run: runProcess } : {}),
        env,
        fetch: fetchImpl,
        ...(ws.root ? { config: loadConfig(ws.root), root: ws.root } : {}),
        token: () => (ws.root ? new SecretStore(ws.root, env, ws.home).get("_provider", "CLOUDFLARE_API_TOKEN") : null),
      }),
    secrets: () => new SecretStore(root(), env, ws.home),
  };
}
