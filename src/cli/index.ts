// The evaluator CLI `resin` on commander: every subcommand, option and help text is declared here,
// and nothing else is imported up front. A command's implementation (which may pull in the whole
// runtime) is loaded with a dynamic import only when that command runs, so `resin --help`,
// `resin check` and `resin serve` do not pay for what `resin run` needs, and the reverse.
// Exit codes (service.md 5): 0 ok, 1 script or run error, 2 usage error (commander's parse errors
// included). Output goes through console.log / console.error, so it can be captured in tests.

import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { VERSION } from "../core/version.js";
import { completionScript, SHELLS } from "./completion.js";

import type { CheckOptions, OptimizeOptions, RunOptions, ServeOptions } from "./options.js";
import type { GenerateOptions } from "./generate.js";
import type { TimeUnit } from "../core/bars.js";

/** An integer option parser: `min` is the smallest allowed value; the message names the flag. */
export function intArg(flag: string, min: number | null): (v: string) => number {
  return (v) => {
    if (!/^-?\d+$/.test(v.trim()) || (min !== null && Number(v) < min)) {
      const what =
        min === null
          ? "an integer"
          : min === 0
            ? "a non-negative integer"
            : min === 1
              ? "a positive integer"
              : `an integer >= ${min}`;
      throw new InvalidArgumentError(`${flag} must be ${what}, got '${v}'`);
    }
    return Number(v);
  };
}

/** --backtest-start: "bar:N", a UNIX time in ms, or an ISO date/time (UTC unless it names an offset). */
export function backtestStartArg(v: string): number | { bar: number } {
  const s = v.trim();
  const bar = /^bar:(\d+)$/.exec(s);
  if (bar) return { bar: Number(bar[1]) };
  if (/^\d+$/.test(s)) return Number(s);
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) || /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`);
  if (Number.isFinite(t)) return t;
  throw new InvalidArgumentError(`--backtest-start must be bar:N, a UNIX time in ms or an ISO date/time, got '${v}'`);
}

function jsonObjectArg(flag: string, example: string): (v: string) => Record<string, unknown> {
  return (v) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      throw new InvalidArgumentError(`${flag} must be a JSON object, e.g. '${example}'`);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw new InvalidArgumentError(`${flag} must be a JSON object, e.g. '${example}'`);
    return parsed as Record<string, unknown>;
  };
}

function portArg(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535)
    throw new InvalidArgumentError(`--port needs a number between 0 and 65535 (got ${v})`);
  return n;
}

function spaceArg(v: string): unknown {
  try {
    const parsed = JSON.parse(v) as unknown;
    return Array.isArray(parsed) ? { params: parsed } : parsed;
  } catch {
    throw new InvalidArgumentError(`--space must be JSON ({"params": [...]}), got '${v}'`);
  }
}

/** --time-unit: how the time column of --data (and --data-feed) files is read. */
function timeUnitArg(v: string): TimeUnit {
  if (v !== "auto" && v !== "s" && v !== "ms")
    throw new InvalidArgumentError(`--time-unit must be auto, s or ms, got '${v}'`);
  return v;
}
const TIME_UNIT_HELP = "time column unit of the data files: s | ms | auto (auto refuses files that mix the two)";

function fractionArg(v: string): number {
  const f = Number(v);
  if (!Number.isFinite(f) || f <= 0 || f >= 1)
    throw new InvalidArgumentError(`--holdout-frac must be a number between 0 and 1, got '${v}'`);
  return f;
}

/** The program: one Command per subcommand; `exit` receives each action's exit code. */
export function buildProgram(exit: (code: number) => void): Command {
  const program = new Command("resin")
    .description("Run TradingView Pine Script v5/v6 outside TradingView")
    .version(VERSION, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (s) => console.log(s.replace(/\n$/, "")),
      writeErr: (s) => console.error(s.replace(/\n$/, "")),
    })
    .addHelpText(
      "after",
      `
Examples:
  resin run examples/ema-cross.pine --data examples/data/daily.csv
  resin run script.pine --bars 200 --json | jq .series
  resin check script.pine
  resin optimize strategy.pine --trials 50 --seed 1
  resin serve --port 8787 --app
  eval "$(resin completion bash)"`,
    );

  program
    .command("run")
    .summary("run a script against bars and print plots (and trades)")
    .description(
      "Runs a script (service.md 5). Without --data it uses seeded random-walk bars. Prints the last value of each plot, the strategy summary for strategies, the mode and the time; --json prints the full result object on stdout and nothing else there.",
    )
    .argument("<script>", "the .pine file")
    .option("--bars <N>", "seeded random-walk bars to generate when no --data is given", intArg("--bars", 0), 20)
    .option("--data <FILE>", "bars from a CSV or JSON file (time,open,high,low,close,volume)")
    .option(
      "--data-feed <FILE>",
      'bars of other symbols/timeframes for request.* and the bar magnifier: a JSON object {"SYMBOL": bars, "SYMBOL|TF": bars, ...}, each bars value an array of {time, open, high, low, close, volume?} or columns {time: [], open: [], ...}; time in unix seconds or ms. Example: {"BINANCE:ETHUSDT|60": [...]}',
    )
    .option("--time-unit <UNIT>", TIME_UNIT_HELP, timeUnitArg, "auto")
    .option("--syminfo <FILE>", "symbol description (JSON or TOML)")
    .option("--timeframe <TF>", 'chart timeframe ("1", "60", "D", ...); default: inferred from the bars')
    .option("--mode <MODE>", "interpret | compile | auto (default: $SVC_RUNTIME_MODE, else interpret)")
    .option("--inputs <JSON>", `input overrides, e.g. '{"Length": 20}'`, jsonObjectArg("--inputs", '{"Length": 20}'))
    .option("--symbol <S>", "symbol, e.g. BINANCE:BTCUSDT", "CHART")
    .option("--realtime-last-bar", "the last bar is a forming realtime bar (service.md 1.4)")
    .option(
      "--realtime-ticks <N>",
      "ticks per realtime bar (default 1; more than 1 implies --realtime-last-bar)",
      intArg("--realtime-ticks", 1),
    )
    .option("--realtime-bars <N>", "the last N bars are realtime bars", intArg("--realtime-bars", 1))
    .option("--realtime-from-bar <N>", "bars from index N on are realtime bars", intArg("--realtime-from-bar", 0))
    .option(
      "--backtest-start <WHEN>",
      "strategies: orders count from this bar on (bar:N, UNIX ms or an ISO date/time, UTC); earlier bars still warm up",
      backtestStartArg,
    )
    .option("--json", "print the full result object as JSON")
    .action(async (script: string, opts: RunOptions) => exit(await (await import("./run.js")).execute(script, opts)));

  program
    .command("check")
    .summary("parse and check a script, print diagnostics")
    .description(
      "Parses and checks the script, printing its diagnostics (file:line:col: severity: message). Exits 0 when there are no errors, 1 when there are, 2 on a usage error.",
    )
    .argument("<script>", "the .pine file")
    .option("--json", "print the diagnostics as a JSON array instead")
    .option("--syntax-only", "stop after parsing (skip name, type and qualifier checks)")
    .action(async (script: string, opts: CheckOptions) =>
      exit(await (await import("./check.js")).execute(script, opts)),
    );

  program
    .command("optimize")
    .summary("search a strategy's inputs")
    .description(
      "Searches a strategy's inputs with the shared optimize module (service.md 3). The space defaults to the strategy's int/float inputs that declare minval and maxval. Trials run on this process's thread first, and on worker threads once the study's remaining work pays for their start-up; --workers N caps the threads, this one included.",
    )
    .argument("<strategy>", "the strategy's .pine file")
    .option("--trials <N>", "trials to run (default 30, at most 200; 10,000 with --remote)", intArg("--trials", 1))
    .option("--sampler <S>", "auto | random | tpe | grid (default auto: random below 20 trials, else tpe)")
    .option("--objective <O>", "composite | net_pnl | profit_factor | calmar (default composite)")
    .option(
      "--space <JSON>",
      '{"params":[{"name":"Length","kind":"int","min":5,"max":50,"step":5}, ...]} (default: the strategy\'s int/float inputs with minval and maxval)',
      spaceArg,
    )
    .option("--validation <M>", "holdout | walk-forward | in-sample", "holdout")
    .option("--bars <N>", "seeded random-walk bars when no --data is given", intArg("--bars", 0), 500)
    .option("--train-bars <N>", "walk-forward train window (default max(8, 2*bars/3))", intArg("--train-bars", 0))
    .option("--test-bars <N>", "walk-forward test window (default max(4, bars/6))", intArg("--test-bars", 0))
    .option("--step-bars <N>", "walk-forward step (default: test bars)", intArg("--step-bars", 0))
    .option("--holdout-frac <F>", "holdout test fraction (default 0.3, clamped to 0.05..0.8)", fractionArg)
    .option("--min-trades <N>", "fewer closed trades score -inf (default 5)", intArg("--min-trades", 0))
    .option("--seed <N>", "makes the search reproducible", intArg("--seed", null))
    .option(
      "--data <FILE>",
      "bars from a CSV or JSON file; repeat it for a study over several data sets, each trial scored on all (--aggregate)",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option("--aggregate <A>", "several --data: a trial's score is the sets' mean (default) or min")
    .option("--time-unit <UNIT>", TIME_UNIT_HELP, timeUnitArg, "auto")
    .option("--json", "print the full result as JSON on stdout")
    .option(
      "--parallelism <N>",
      "TPE generation size: proposals read only earlier generations (default 1; the result depends on it, not on where trials run)",
      intArg("--parallelism", 1),
    )
    .option(
      "--remote <URL>",
      "run the study on an edge worker (POST /studies), fanned out over its invocations; API key from RESIN_API_KEY",
    )
    .option(
      "--workers <N>",
      "threads for the trials at most, this one included (default: one per core the process may use, a container's CPU quota counted, at most 8); the others start once the study's remaining work pays for their start-up",
      intArg("--workers", 1),
    )
    .option("--concurrency <N>", "with --remote: batches in flight (default 8, at most 32)", intArg("--concurrency", 1))
    .option(
      "--batch-size <N>",
      "with --remote: trials per invocation (default from the sampler)",
      intArg("--batch-size", 1),
    )
    .addHelpText(
      "after",
      `
Examples:
  resin optimize strategy.pine --trials 50 --seed 1
  RESIN_API_KEY=... resin optimize strategy.pine --trials 2000 --seed 1 --remote https://resin.example.workers.dev
  resin optimize strategy.pine --validation walk-forward --bars 1000 --sampler tpe --json`,
    )
    .action(async (script: string, opts: OptimizeOptions) =>
      exit(await (await import("./optimize.js")).execute(script, opts)),
    );

  program
    .command("serve")
    .summary("serve the HTTP API (and the chart app with --app)")
    .description("Serve the HTTP API (/run, /run/batch, /optimize, /backtest/quick, /health).")
    .addOption(new Option("-p, --port <N>", "port to listen on (0 picks a free port)").argParser(portArg).default(8787))
    .option("--host <ADDR>", "address to bind", "127.0.0.1")
    .option("--app", "also serve the built chart app (dist-web/) at /")
    .option(
      "--cors <ORIGINS>",
      'origins allowed to call the API from a browser: "*" or a comma-separated list (default $SVC_CORS_ORIGINS, else none: same-origin only)',
    )
    .addHelpText(
      "after",
      `
Environment:
  SVC_MAX_RUN_SECONDS=30     time budget of every run; timeout_seconds can only lower it
  SVC_POOL_THREADS           worker threads (default: cores, at most 8)
  SVC_WORKER_HEAP_MB=1024    heap cap of each worker thread (507 MEMORY_LIMIT past it)
  SVC_DRAIN_SECONDS=30       on SIGTERM/SIGINT, how long in-flight runs may finish
  SVC_BODY_TIMEOUT_SECONDS=30, SVC_MAX_CONNECTIONS=256
  SVC_TRUST_PROXY=N          trust X-Forwarded-For from N proxies (default 0: ignored)
  SVC_CORS_ORIGINS           as --cors
  FREE_TIER_LIMITS=1         the free-tier guards (FREE_MAX_BARS, FREE_MAX_SCRIPT_CHARS,
                             FREE_MAX_CONCURRENT, FREE_RATE_LIMIT, FREE_RATE_WINDOW_SEC)
  SVC_RUNNER=1               hosted runner: JSON log line per request, startup check

Examples:
  resin serve
  resin serve --app --port 0`,
    )
    .action(async (opts: ServeOptions) => exit(await (await import("./serve.js")).execute(opts)));

  // resin bench keeps its own option parser (src/cli/bench.ts) and help: its arguments pass through.
  program
    .command("bench")
    .summary("run the benchmark suite and print ratios (resin bench --help)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[args...]")
    .action(async (args: string[]) => exit(await (await import("./bench.js")).command(args)));

  program
    .command("coverage")
    .summary("implemented builtins vs the v6 catalogue")
    .description("Prints builtins implemented per namespace and writes docs/coverage.md.")
    .option("--no-write", "print only, do not write docs/coverage.md")
    .action(async (opts: { write: boolean }) => exit(await (await import("./coverage.js")).execute(opts)));

  program
    .command("generate")
    .summary("write a verified script from a description")
    .description(
      "Writes a Pine v6 script from a plain-language description and verifies it: it must check clean, run the same in interpret and compile mode on sample bars, and show what was asked (strategy, stop/limit exits, session filter, plot titles, alerts). The offline backend needs no network; the llm backend uses an OpenAI-compatible endpoint from RESIN_LLM_BASE_URL, RESIN_LLM_MODEL and RESIN_LLM_API_KEY (the default when configured).",
    )
    .argument("<text>", 'the description, e.g. "ema 20/50 crossover, long only, 2% stop, 4% tp"')
    .option("--backend <B>", "offline | llm (default: llm when configured, else offline)")
    .option("--out <FILE>", "write the script to this file instead of stdout")
    .option("--rounds <N>", "attempts including repairs (default 3, at most 5)", intArg("--rounds", 1))
    .option("--json", "print the whole answer (script, verified checks, what was not understood) as JSON")
    .addHelpText(
      "after",
      `
Examples:
  resin generate "rsi<30 buy, >70 sell" > rsi.pine
  resin generate "EMA 20/50 crossover, long only, 2% stop, 4% take profit, 9:30-16:00 New York" --out ema.pine`,
    )
    .action(async (text: string, opts: GenerateOptions) =>
      exit(await (await import("./generate.js")).execute(text, opts)),
    );

  program
    .command("lsp")
    .summary("run the Pine language server over stdio (for editors)")
    .description(
      "Speaks the Language Server Protocol on stdin/stdout: diagnostics, completion, hover, signature help, definitions, references, rename, symbols, formatting, semantic tokens, folding and inlay hints for .pine files. Editors start it themselves (editors/vscode does); it runs until the editor closes the connection.",
    )
    .option("--stdio", "talk over stdin/stdout (the default and only transport; accepted for editor clients)")
    .action(async () => {
      await (await import("../lsp/node/server.js")).runServer();
      exit(0);
    });

  program
    .command("completion")
    .summary("print a shell completion script (bash, zsh, fish)")
    .argument("<shell>", "bash | zsh | fish")
    .addHelpText(
      "after",
      `
Examples:
  eval "$(resin completion bash)"
  resin completion fish | source`,
    )
    .action((shell: string) => {
      const script = completionScript(shell, program);
      if (!script) {
        console.error(`resin completion: unknown shell '${shell}' (one of ${SHELLS.join(", ")})`);
        return exit(2);
      }
      process.stdout.write(script);
      exit(0);
    });

  return program;
}

/** Runs the command line; resolves with the exit code (the caller sets process.exitCode). */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => (code = c)).exitOverride();
  for (const sub of program.commands) sub.exitOverride();
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end the parse with exit code 0; every parse error is a usage error.
      return err.exitCode === 0 ? 0 : 2;
    }
    throw err;
  }
  return code;
}

/** The entry of one subcommand with its own arguments (`resin <name> ...argv`). */
export function runSubcommand(name: string, argv: string[]): Promise<number> {
  return main([name, ...argv]);
}
