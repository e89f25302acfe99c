// The resinctl command tree (ops-cli.md). Commands without a handler in this build answer with a
// clear NOT_IMPLEMENTED error (exit 4) instead of pretending; removed commands name their replacement.

import * as core from "./commands-core.js";
import * as dep from "./commands-deploy.js";
import * as scr from "./commands-script.js";
import type { CmdResult, Ctx, Inv } from "./context.js";
import { CtlError, EXIT } from "./errors.js";

export type Handler = (ctx: Ctx, inv: Inv) => Promise<CmdResult>;

/** An option as commander declares it: flags ("--port <N>"), description, and "int" for a non-negative integer. */
export type OptSpec = [flags: string, description: string, kind?: "int"];

export interface Cmd {
  summary: string;
  /** Positional arguments in commander's notation ("<worker> [version]"). */
  args?: string;
  options?: OptSpec[];
  run?: Handler;
  sub?: Record<string, Cmd>;
  aliases?: string[];
  examples?: string[];
  seeAlso?: string[];
  /** Takes any arguments and options (the commands not implemented yet say so whatever they get). */
  anyArgs?: boolean;
  /** Runs without a workspace (help-like commands). */
  noWorkspace?: boolean;
}

function todo(path: string): Handler {
  return async () => {
    throw new CtlError("NOT_IMPLEMENTED", `'resinctl ${path}' is not implemented in this build`, {
      exit: EXIT.FAILED,
      hint: "implemented here: init, onboard, setup, config, secrets, keys, doctor, check, dev, deploy, workers, script, completion",
    });
  };
}

const leaf = (summary: string, run: Handler, extra: Partial<Cmd> = {}): Cmd => ({ summary, run, ...extra });
const stub = (path: string, summary: string): Cmd => ({
  summary: `${summary} (not implemented)`,
  run: todo(path),
  anyArgs: true,
});
const group = (summary: string, sub: Record<string, Cmd>, extra: Partial<Cmd> = {}): Cmd => ({
  summary,
  sub,
  ...extra,
});

export const TREE: Record<string, Cmd> = {
  onboard: leaf("init + setup in one go", core.onboard, {
    aliases: ["bootstrap", "quickstart"],
    options: [
      ["--token <T>", "Cloudflare API token"],
      ["--account <A>", "Cloudflare account id"],
      ["--preset <P>", "minimal | standard | full"],
    ],
    examples: ["resinctl onboard --preset minimal"],
    seeAlso: ["init", "setup"],
  }),
  init: leaf("write the deployment config (resinctl.toml)", core.init, {
    options: [
      ["--provider <P>", "local | cloudflare"],
      ["--account <ID>", "Cloudflare account id"],
      ["--preset <P>", "minimal | standard | full"],
      ["--token <T>", "Cloudflare API token"],
    ],
    seeAlso: ["setup", "config show"],
  }),
  setup: leaf("state directories, internal keys", core.setup, { seeAlso: ["init", "check setup"] }),
  clone: stub("clone", "add worker repositories as git submodules"),
  dev: group("run workers locally under workerd", {
    start: leaf("start every configured worker (foreground)", dep.devStart, {
      options: [
        ["--port <N>", "first port (the next workers take the following ones; 0 picks free ports)", "int"],
        ["--runtime <R>", "workerd (the only runtime of the local provider)"],
      ],
      examples: ["resinctl dev start", "resinctl dev start --port 0"],
    }),
    worker: leaf("start one worker (foreground)", dep.devWorker, {
      args: "<name>",
      options: [["--port <N>", "port (0 picks a free one)", "int"]],
    }),
    dashboard: stub("dev dashboard", "serve the dashboard locally"),
  }),
  deploy: group("deploy workers (numbered versions, hot reload, rollback)", {
    all: leaf("deploy every worker", async (ctx) => dep.deployWorkers(ctx), {
      options: [["--auto", "no questions (the default here)"]],
    }),
    workers: leaf("deploy every worker", async (ctx) => dep.deployWorkers(ctx)),
    worker: leaf("deploy one worker", dep.deployWorker, { args: "<name>", examples: ["resinctl deploy worker resin"] }),
    history: leaf("list a worker's versions", dep.deployHistory, { args: "<worker>" }),
    rollback: leaf("make an earlier version current", dep.deployRollback, {
      args: "<worker> [version]",
      examples: ["resinctl deploy rollback resin", "resinctl deploy rollback resin 2"],
    }),
    dashboard: stub("deploy dashboard", "deploy the dashboard"),
    "telegram-webhook": stub("deploy telegram-webhook", "register the chat-bot webhook"),
    "update-internal-urls": stub("deploy update-internal-urls", "rewrite internal worker URLs"),
    "kv-config": stub("deploy kv-config", "push KV configuration"),
  }),
  infra: group("provision stores", {
    provision: stub("infra provision", "create every store"),
    sqlstore: stub("infra sqlstore", "SQL stores"),
    kvstore: stub("infra kvstore", "KV stores"),
    objstore: stub("infra objstore", "object stores"),
    queues: stub("infra queues", "queues"),
    vectorize: stub("infra vectorize", "vector indexes"),
    analytics: stub("infra analytics", "analytics datasets"),
  }),
  config: group("show and change the config", {
    show: leaf("print the config", core.configShow),
    set: leaf("set a config value", core.configSet, {
      args: "<key> <value>",
      examples: ["resinctl config set workers.resin.port 8790"],
    }),
    env: stub("config env", "environment files"),
    kv: stub("config kv", "KV configuration entries"),
    transport: stub("config transport", "transport settings"),
  }),
  secrets: group("worker secrets (encrypted at rest)", {
    list: leaf("list secrets (values masked)", core.secretsList, { args: "[worker]" }),
    set: leaf("set a secret (value from --value or stdin)", core.secretsSet, {
      args: "<worker> <NAME>",
      options: [["--value <V>", "the value (else read from stdin)"]],
      examples: ["echo s3cret | resinctl secrets set resin API_KEY"],
    }),
    delete: leaf("delete a secret", core.secretsDelete, { args: "<worker> <NAME>" }),
    sync: stub("secrets sync", "push secrets to the provider"),
  }),
  keys: group("internal auth keys", {
    generate: leaf("generate an internal key", core.keysGenerate),
    list: leaf("list internal keys", core.keysList),
  }),
  check: group("verify the installation", {
    prerequisites: leaf("node, workerd, esbuild, kernels.wasm (and wrangler for cloudflare)", core.checkPrerequisites),
    setup: leaf("config, state and keys", core.checkSetup),
    health: leaf("probe every worker's /health", core.checkHealth, {
      options: [["--fix", "repair what can be repaired"]],
    }),
    fix: stub("check fix", "repair what check found"),
    "submodule-gitignore": stub("check submodule-gitignore", "check submodule ignores"),
  }),
  doctor: leaf("workspace resolution and security hygiene", core.doctor, {
    options: [
      ["--security", "only the security hygiene checks"],
      ["--fix-runtime", "clone a global runtime into ~/.resinctl/repo"],
    ],
    noWorkspace: true,
  }),
  tunnel: group("tunnels", { check: stub("tunnel check", "detect a tunnel daemon") }),
  db: group(
    "SQL store",
    Object.fromEntries(["apply", "migrate", "list", "query", "export", "reset"].map((n) => [n, stub(`db ${n}`, n)])),
  ),
  monitor: group("monitoring", {
    ...Object.fromEntries(["logs", "queue-depth", "backup", "analytics"].map((n) => [n, stub(`monitor ${n}`, n)])),
    trades: leaf("the last N strategy events forwarded to the trade service", scr.monitorTrades, { args: "[N]" }),
    "kill-switch": leaf("show or set the global trade-signal kill switch", scr.killSwitch, { args: "[action]" }),
  }),
  workers: group("workers", {
    list: leaf("configured workers, versions and status", dep.workersList),
    dev: leaf("start one worker (same as dev worker)", dep.devWorker, {
      args: "<name>",
      options: [["--port <N>", "port (0 picks a free one)", "int"]],
    }),
    logs: stub("workers logs", "tail a worker's logs"),
  }),
  repair: group(
    "repairs",
    Object.fromEntries(
      ["check", "worker", "infra", "secrets", "kv", "db", "rebuild"].map((n) => [n, stub(`repair ${n}`, n)]),
    ),
  ),
  logs: group("logs", { worker: stub("logs worker", "a worker's logs"), all: stub("logs all", "all logs") }),
  schema: group(
    "schemas",
    Object.fromEntries(["validate", "list", "generate"].map((n) => [n, stub(`schema ${n}`, n)])),
  ),
  update: stub("update", "self-update"),
  test: stub("test", "the verification pipeline"),
  waf: stub("waf", "firewall rules"),
  dashboard: group("dashboard", { dev: stub("dashboard dev", "dev"), deploy: stub("dashboard deploy", "deploy") }),
  tui: stub("tui", "terminal dashboard"),
  agent: group("agent worker", { health: stub("agent health", "agent health") }),
  script: group("the edge worker's evaluate API", {
    health: leaf("GET /health of the edge worker", scr.scriptHealth),
    run: leaf("POST /run with a script file", scr.scriptRun, {
      args: "<file>",
      options: [
        ["--bars <N>", "synthetic bars when no --data is given (default 20)", "int"],
        ["--data <FILE>", "bars as a JSON array"],
        ["--mode <M>", "interpret | compile | auto"],
        ["--inputs <JSON>", "input overrides"],
      ],
    }),
    scripts: group("the scripts registry", {
      list: leaf("list stored scripts", scr.scriptsList),
      get: leaf("print a stored script", scr.scriptsGet, { args: "<id>" }),
      deploy: leaf("store a script", scr.scriptsDeploy, {
        args: "<file>",
        options: [
          ["--id <ID>", "script id (default: the file name)"],
          ["--name <N>", "display name"],
        ],
      }),
      delete: leaf("delete a stored script", scr.scriptsDelete, { args: "<id>" }),
    }),
    cron: group("bar-close jobs", {
      jobs: leaf("list jobs (--set file.json replaces them)", scr.cronJobs, {
        options: [["--set <FILE>", "replace the jobs with a JSON file's"]],
      }),
      run: leaf("run jobs now", scr.cronRun, {
        options: [
          ["--job <ID>", "only this job"],
          ["--force", "run even without a new closed bar"],
        ],
      }),
    }),
    ingest: leaf("store bars for a symbol/timeframe", scr.ingest, {
      options: [
        ["--symbol <S>", "symbol"],
        ["--timeframe <TF>", "timeframe (1, 60, 1D, ...)"],
        ["--data <FILE>", "bars as a JSON array"],
        ["--bars <N>", "synthetic bars (default 20)", "int"],
      ],
    }),
    feed: group("feeds", { refresh: stub("script feed refresh", "refresh feeds") }),
    "sync-vendor": stub("script sync-vendor", "sync vendored scripts"),
    deploy: leaf("bundle and deploy the edge worker", async (ctx) =>
      dep.deployWorker(ctx, { args: ["resin"], opts: {} }),
    ),
  }),
  trace: group(
    "tracing",
    Object.fromEntries(
      ["events", "metrics", "live", "keys", "values", "destinations", "usage"].map((n) => [n, stub(`trace ${n}`, n)]),
    ),
  ),
  perf: group("latency probes", { fastpath: stub("perf fastpath", "fast-path probes") }),
  disclaimer: leaf("what resin is and is not", core.disclaimer, { noWorkspace: true }),
  completion: leaf("shell completion script (bash, zsh, fish)", async () => ({}), {
    args: "<shell>",
    noWorkspace: true,
  }),
};

/** Removed commands and their replacements. */
export const REMOVED: Record<string, string> = {
  "monitor status": "check health",
  "workers status": "check health",
  "dashboard update-urls": "deploy update-internal-urls",
  "config secrets": "secrets",
  "config keys": "keys",
};
