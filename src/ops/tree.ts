// The resinctl command tree (ops-cli.md). Commands without a handler in this build answer with a
// clear NOT_IMPLEMENTED error (exit 4) instead of pretending; removed commands name their replacement.

import * as core from "./commands-core.js";
import * as dep from "./commands-deploy.js";
import * as scr from "./commands-script.js";
import type { CmdResult, Ctx } from "./context.js";
import { CtlError, EXIT } from "./errors.js";

export type Handler = (ctx: Ctx, args: string[]) => Promise<CmdResult>;

export interface Cmd {
  summary: string;
  usage?: string;
  run?: Handler;
  sub?: Record<string, Cmd>;
  aliases?: string[];
  examples?: string[];
  seeAlso?: string[];
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
const stub = (path: string, summary: string): Cmd => ({ summary: `${summary} (not implemented)`, run: todo(path) });
const group = (summary: string, sub: Record<string, Cmd>, extra: Partial<Cmd> = {}): Cmd => ({ summary, sub, ...extra });

export const TREE: Record<string, Cmd> = {
  onboard: leaf("init + setup in one go", core.onboard, { aliases: ["bootstrap", "quickstart"], usage: "resinctl onboard [--token T] [--account A] [--preset minimal|standard|full]", examples: ["resinctl onboard --preset minimal"], seeAlso: ["init", "setup"] }),
  init: leaf("write the deployment config (resinctl.toml)", core.init, { usage: "resinctl init [--provider local|cloudflare] [--account ID] [--yes]", seeAlso: ["setup", "config show"] }),
  setup: leaf("state directories, internal keys", core.setup, { seeAlso: ["init", "check setup"] }),
  clone: stub("clone", "add worker repositories as git submodules"),
  dev: group("run workers locally under workerd", {
    start: leaf("start every configured worker (foreground)", dep.devStart, { usage: "resinctl dev start [--port N] [--runtime workerd]", examples: ["resinctl dev start", "resinctl dev start --port 0"] }),
    worker: leaf("start one worker (foreground)", dep.devWorker, { usage: "resinctl dev worker <name> [--port N]" }),
    dashboard: stub("dev dashboard", "serve the dashboard locally"),
  }),
  deploy: group("deploy workers (numbered versions, hot reload, rollback)", {
    all: leaf("deploy every worker", async (ctx) => dep.deployWorkers(ctx), { usage: "resinctl deploy all [--auto]" }),
    workers: leaf("deploy every worker", async (ctx) => dep.deployWorkers(ctx)),
    worker: leaf("deploy one worker", dep.deployWorker, { usage: "resinctl deploy worker <name>", examples: ["resinctl deploy worker resin"] }),
    history: leaf("list a worker's versions", dep.deployHistory, { usage: "resinctl deploy history <worker>" }),
    rollback: leaf("make an earlier version current", dep.deployRollback, { usage: "resinctl deploy rollback <worker> [version]", examples: ["resinctl deploy rollback resin", "resinctl deploy rollback resin 2"] }),
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
    set: leaf("set a config value", core.configSet, { usage: "resinctl config set <key> <value>", examples: ["resinctl config set workers.resin.port 8790"] }),
    env: stub("config env", "environment files"),
    kv: stub("config kv", "KV configuration entries"),
    transport: stub("config transport", "transport settings"),
  }),
  secrets: group("worker secrets (encrypted at rest)", {
    list: leaf("list secrets (values masked)", core.secretsList, { usage: "resinctl secrets list [worker]" }),
    set: leaf("set a secret (value from --value or stdin)", core.secretsSet, { usage: "resinctl secrets set <worker> <NAME> [--value V]", examples: ["echo s3cret | resinctl secrets set resin API_KEY"] }),
    delete: leaf("delete a secret", core.secretsDelete, { usage: "resinctl secrets delete <worker> <NAME>" }),
    sync: stub("secrets sync", "push secrets to the provider"),
  }),
  keys: group("internal auth keys", { generate: leaf("generate an internal key", core.keysGenerate), list: leaf("list internal keys", core.keysList) }),
  check: group("verify the installation", {
    prerequisites: leaf("node, workerd, esbuild, kernels.wasm (and wrangler for cloudflare)", core.checkPrerequisites),
    setup: leaf("config, state and keys", core.checkSetup),
    health: leaf("probe every worker's /health", core.checkHealth, { usage: "resinctl check health [--fix]" }),
    fix: stub("check fix", "repair what check found"),
    "submodule-gitignore": stub("check submodule-gitignore", "check submodule ignores"),
  }),
  doctor: leaf("workspace resolution and security hygiene", core.doctor, { usage: "resinctl doctor [--security] [--fix-runtime]", noWorkspace: true }),
  tunnel: group("tunnels", { check: stub("tunnel check", "detect a tunnel daemon") }),
  db: group("SQL store", Object.fromEntries(["apply", "migrate", "list", "query", "export", "reset"].map((n) => [n, stub(`db ${n}`, n)]))),
  monitor: group("monitoring", {
    ...Object.fromEntries(["logs", "queue-depth", "backup", "analytics"].map((n) => [n, stub(`monitor ${n}`, n)])),
    trades: leaf("the last N strategy events forwarded to the trade service", scr.monitorTrades, { usage: "resinctl monitor trades [N]" }),
    "kill-switch": leaf("show or set the global trade-signal kill switch", scr.killSwitch, { usage: "resinctl monitor kill-switch [show|on|off]" }),
  }),
  workers: group("workers", {
    list: leaf("configured workers, versions and status", dep.workersList),
    dev: leaf("start one worker (same as dev worker)", dep.devWorker, { usage: "resinctl workers dev <name>" }),
    logs: stub("workers logs", "tail a worker's logs"),
  }),
  repair: group("repairs", Object.fromEntries(["check", "worker", "infra", "secrets", "kv", "db", "rebuild"].map((n) => [n, stub(`repair ${n}`, n)]))),
  logs: group("logs", { worker: stub("logs worker", "a worker's logs"), all: stub("logs all", "all logs") }),
  schema: group("schemas", Object.fromEntries(["validate", "list", "generate"].map((n) => [n, stub(`schema ${n}`, n)]))),
  update: stub("update", "self-update"),
  test: stub("test", "the verification pipeline"),
  waf: stub("waf", "firewall rules"),
  dashboard: group("dashboard", { dev: stub("dashboard dev", "dev"), deploy: stub("dashboard deploy", "deploy") }),
  tui: stub("tui", "terminal dashboard"),
  agent: group("agent worker", { health: stub("agent health", "agent health") }),
  script: group("the edge worker's evaluate API", {
    health: leaf("GET /health of the edge worker", scr.scriptHealth),
    run: leaf("POST /run with a script file", scr.scriptRun, { usage: "resinctl script run <file.pine> [--bars N] [--data bars.json] [--mode m] [--inputs json]" }),
    scripts: group("the scripts registry", {
      list: leaf("list stored scripts", scr.scriptsList),
      get: leaf("print a stored script", scr.scriptsGet, { usage: "resinctl script scripts get <id>" }),
      deploy: leaf("store a script", scr.scriptsDeploy, { usage: "resinctl script scripts deploy <file.pine> [--id ID] [--name N]" }),
      delete: leaf("delete a stored script", scr.scriptsDelete, { usage: "resinctl script scripts delete <id> --yes" }),
    }),
    cron: group("bar-close jobs", {
      jobs: leaf("list jobs (--set file.json replaces them)", scr.cronJobs, { usage: "resinctl script cron jobs [--set jobs.json]" }),
      run: leaf("run jobs now", scr.cronRun, { usage: "resinctl script cron run [--job ID] [--force]" }),
    }),
    ingest: leaf("store bars for a symbol/timeframe", scr.ingest, { usage: "resinctl script ingest --symbol S --timeframe TF [--data bars.json | --bars N]" }),
    feed: group("feeds", { refresh: stub("script feed refresh", "refresh feeds") }),
    "sync-vendor": stub("script sync-vendor", "sync vendored scripts"),
    deploy: leaf("bundle and deploy the edge worker", async (ctx) => dep.deployWorker(ctx, ["resin"])),
  }),
  trace: group("tracing", Object.fromEntries(["events", "metrics", "live", "keys", "values", "destinations", "usage"].map((n) => [n, stub(`trace ${n}`, n)]))),
  perf: group("latency probes", { fastpath: stub("perf fastpath", "fast-path probes") }),
  disclaimer: leaf("what resin is and is not", core.disclaimer, { noWorkspace: true }),
  completion: leaf("shell completion script (bash, zsh, fish)", async () => ({}), { usage: "resinctl completion bash|zsh|fish", noWorkspace: true }),
};

/** Removed commands and their replacements. */
export const REMOVED: Record<string, string> = {
  "monitor status": "check health",
  "workers status": "check health",
  "dashboard update-urls": "deploy update-internal-urls",
  "config secrets": "secrets",
  "config keys": "keys",
};
