// resinctl: the operations CLI (ops-cli.md) on commander. The command tree (tree.ts) becomes
// commander commands with their arguments, options, generated and sectioned help; the global flags
// (--json, --quiet, --no-color, -y/--yes) are program options recognised anywhere. What stays ours:
// workspace resolution (then chdir), the onboarding/menu when no command is given (@clack/prompts),
// "did you mean" and removed-command answers rendered as error cards (the spec's wording and the
// --json error body, which commander's own suggestion text cannot give), exit codes and the
// rich-terminal footer.

import { resolve } from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { VERSION } from "../core/version.js";
import { completionScript } from "../cli/completion.js";
import { createCtx, type CmdResult, type Ctx, type Flags, type Inv, type Prompter, type Session } from "./context.js";

export type { Prompter } from "./context.js";
import { CtlError, EXIT } from "./errors.js";
import { hasConfig } from "./config.js";
import { colorEnabled, editDistance, errorCard, formatDuration, paint, type OutputOptions } from "./output.js";
import type { ProcessRunner } from "./provider-cloudflare.js";
import { REMOVED, TREE, type Cmd } from "./tree.js";
import { remember, resolveWorkspace, type Workspace } from "./workspace.js";

export interface CliIO {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  isTTY?: boolean;
  fetch?: typeof fetch;
  runProcess?: ProcessRunner;
  /** chdir into the workspace (off in tests). */
  chdir?: boolean;
  /** Asks questions on a TTY; defaults to @clack/prompts. */
  prompter?: Prompter;
  /** What is piped on stdin (tests); null = stdin is a terminal. Default: process.stdin. */
  stdin?: string | null;
}

/** The interactive menu shown on a TTY when resinctl runs without a command. */
const MENU = ["check health", "workers list", "dev start", "deploy all", "script health", "doctor"];

/** @clack/prompts on stdin/stdout (loaded only when a question is asked). */
export const clackPrompter: Prompter = {
  async confirm(message) {
    const { confirm, isCancel } = await import("@clack/prompts");
    const answer = await confirm({ message });
    return !isCancel(answer) && answer === true;
  },
  async select(message, choices) {
    const { select, isCancel } = await import("@clack/prompts");
    const answer = await select({ message, options: choices.map((c) => ({ value: c, label: c })) });
    return isCancel(answer) ? null : (answer as string);
  },
  async text(message, initial) {
    const { text, isCancel } = await import("@clack/prompts");
    const answer = await text({ message, ...(initial !== undefined ? { initialValue: initial } : {}) });
    return isCancel(answer) ? null : String(answer);
  },
  async password(message) {
    const { password, isCancel } = await import("@clack/prompts");
    const answer = await password({ message });
    return isCancel(answer) ? null : String(answer);
  },
};

async function processStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function nonNegativeInt(flag: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${flag} must be a non-negative integer (got '${v}')`);
    return Number(v);
  };
}

/** Flags the program itself declares; any of them may appear anywhere on the line. */
const GLOBAL_FLAGS = new Set(["--json", "--quiet", "--no-color", "--help", "-h", "--version", "-V", "-y", "--yes"]);

/** What an action hands back to main (commander's action results are not returned by parseAsync). */
interface Outcome {
  result?: CmdResult;
}

/** Builds the commander program over the tree; `run` executes a leaf's handler. */
export function buildProgram(
  out: Pick<OutputOptions, "color">,
  run: (cmd: Cmd, path: string[], inv: Inv) => Promise<void>,
): Command {
  const program = new Command("resinctl")
    .description("provision, deploy and monitor the edge workers that host resin's evaluate API")
    .usage("<command> [options]")
    .option("--json", "machine-readable output on stdout")
    .option("--quiet", "no headers, banners or prompts")
    .option("--no-color", "plain output (also NO_COLOR=1, TERM=dumb)")
    .option("-y, --yes", "skip confirmations")
    .helpOption("-h, --help", "this help")
    .version(VERSION, "-V, --version", "print the version")
    .configureHelp({ styleTitle: (s) => paint(out, "bold", s), sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Examples:
  resinctl onboard
  resinctl dev start
  resinctl deploy worker resin
  resinctl script run strategy.pine --bars 200

See also:
  resinctl doctor
  resinctl completion bash`,
    );

  const add = (parent: Command, name: string, cmd: Cmd, path: string[]): void => {
    const sub = parent.command(name).summary(cmd.summary).description(cmd.summary);
    if (cmd.aliases) sub.aliases(cmd.aliases);
    sub.configureHelp({ styleTitle: (s) => paint(out, "bold", s), showGlobalOptions: true });
    const helpAfter: string[] = [];
    if (cmd.examples?.length) helpAfter.push("", "Examples:", ...cmd.examples.map((e) => `  ${e}`));
    if (cmd.seeAlso?.length)
      helpAfter.push("", "See also:", ...cmd.seeAlso.map((s) => `  ${s.startsWith("resinctl") ? s : `resinctl ${s}`}`));
    if (helpAfter.length) sub.addHelpText("after", helpAfter.join("\n"));
    if (cmd.sub) {
      for (const [k, c] of Object.entries(cmd.sub)) add(sub, k, c, [...path, name]);
      return;
    }
    if (cmd.args) {
      sub.arguments(cmd.args);
      sub.usage(`${cmd.args} [options]`);
    }
    for (const [flags, description, kind] of cmd.options ?? []) {
      if (kind === "int") sub.option(flags, description, nonNegativeInt(flags.split(" ")[0] as string));
      else sub.option(flags, description);
    }
    if (cmd.anyArgs) sub.argument("[args...]").allowUnknownOption().allowExcessArguments();
    sub.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      const args = (self.processedArgs as unknown[]).flat().filter((a): a is string => typeof a === "string");
      await run(cmd, [...path, name], { args, opts: self.opts() });
    });
  };
  for (const [k, c] of Object.entries(TREE)) add(program, k, c, []);
  return program;
}

function allPaths(tree: Record<string, Cmd>, prefix: string[] = []): string[] {
  return Object.entries(tree).flatMap(([k, c]) => [
    [...prefix, k].join(" "),
    ...(c.aliases ?? []).map((a) => [...prefix, a].join(" ")),
    ...(c.sub ? allPaths(c.sub, [...prefix, k]) : []),
  ]);
}

function lookup(entries: Record<string, Cmd>, word: string): [string, Cmd] | null {
  if (entries[word]) return [word, entries[word] as Cmd];
  for (const [k, c] of Object.entries(entries)) if (c.aliases?.includes(word)) return [k, c];
  return null;
}

/** A removed or unknown command on the line, as the error the spec wants; null when the words name real commands. */
function commandProblem(args: string[]): CtlError | null {
  const path: string[] = [];
  let entries: Record<string, Cmd> | undefined = TREE;
  for (const word of args) {
    if (!entries || word.startsWith("-")) break;
    const removed = REMOVED[[...path, word].join(" ")];
    if (removed)
      return new CtlError("REMOVED", `'resinctl ${[...path, word].join(" ")}' was removed; use 'resinctl ${removed}'`, {
        exit: EXIT.USAGE,
        suggestions: [`resinctl ${removed}`],
      });
    const hit = lookup(entries, word);
    if (!hit) {
      const full = [...path, word].join(" ");
      const close = allPaths(TREE).filter((p) => p.split(" ").length === path.length + 1 && editDistance(p, full) <= 2);
      const msg = close.length
        ? `unknown command '${full}'. did you mean '${close[0]}' ?`
        : `unknown command '${full}'`;
      return new CtlError("UNKNOWN_COMMAND", msg, {
        exit: EXIT.USAGE,
        suggestions: close.map((c) => `resinctl ${c}`),
        hint: "resinctl --help lists the commands",
      });
    }
    path.push(hit[0]);
    entries = hit[1].sub;
  }
  return null;
}

export async function main(argv: string[], io: CliIO = {}): Promise<number> {
  const env = io.env ?? (process.env as Record<string, string | undefined>);
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const isTTY = io.isTTY ?? !!process.stdout.isTTY;
  const prompter = io.prompter ?? clackPrompter;
  const flags: Flags = {
    json: argv.includes("--json"),
    quiet: argv.includes("--quiet"),
    yes: argv.includes("-y") || argv.includes("--yes"),
    help: argv.includes("--help") || argv.includes("-h"),
  };
  const color = !flags.json && colorEnabled(argv, env, isTTY);
  const out: OutputOptions = {
    json: flags.json,
    quiet: flags.quiet,
    color,
    rich: color && isTTY && !flags.quiet,
    write: stdout,
    writeErr: stderr,
  };
  const words = argv.filter((a) => !GLOBAL_FLAGS.has(a));
  const started = Date.now();

  const fail = (e: CtlError): number => {
    if (flags.json) {
      stdout(
        `${JSON.stringify({ success: false, error: e.message, code: e.code, ...(e.hint ? { hint: e.hint } : {}), ...(e.suggestions ? { suggestions: e.suggestions } : {}) })}\n`,
      );
    } else stderr(`${errorCard(out, e)}\n`);
    return e.exitCode;
  };

  if (argv.includes("--version") || argv.includes("-V")) {
    stdout(flags.json ? `${JSON.stringify({ success: true, version: VERSION })}\n` : `${VERSION}\n`);
    return EXIT.OK;
  }

  const cwd = resolve(io.cwd ?? process.cwd());
  let ws: Workspace;
  try {
    ws = resolveWorkspace(env, cwd);
  } catch (e) {
    if (e instanceof CtlError) return fail(e);
    throw e;
  }
  // onboard and init create a workspace: unless the caller is inside one (or SVC_REPO names one), the
  // caller's directory becomes one, even when another workspace is remembered from an earlier onboarding.
  const first = words[0] ? lookup(TREE, words[0])?.[0] : undefined;
  if ((first === "onboard" || first === "init") && ws.source !== "cwd" && ws.source !== "env")
    ws = { ...ws, root: cwd, source: "new" };
  if (ws.root && io.chdir !== false) process.chdir(ws.root);
  if (ws.root && env.SVC_CLI_SILENT !== "1" && !flags.quiet)
    stderr(`${paint(out, "gray", `workspace: ${ws.root} (${ws.source})`)}\n`);
  const session: Session = {
    cwd,
    isTTY,
    readStdin: async () => (io.stdin !== undefined ? io.stdin : processStdin()),
    ...(prompter ? { prompter } : {}),
  };
  const ctx: Ctx = createCtx(ws, session, env, flags, out, io.fetch ?? fetch, io.runProcess);

  /** Help text as the output mode wants it: plain, or inside the JSON body (stdout holds JSON only). */
  const emitHelp = (help: string, exit: number): number => {
    if (flags.json) {
      stdout(
        `${JSON.stringify(
          exit === EXIT.OK
            ? { success: true, help: help.trimEnd() }
            : { success: false, code: "USAGE", error: "a subcommand is required", help: help.trimEnd() },
        )}\n`,
      );
    } else stdout(`${help.trimEnd()}\n`);
    return exit;
  };

  const outcome: Outcome = {};
  const program = buildProgram(out, async (cmd, path, inv) => {
    if (path[0] === "completion") {
      const script = completionScript(inv.args[0] ?? "", program, ["rctl"]);
      if (!script) throw new CtlError("USAGE", "completion needs a shell: bash, zsh or fish", { exit: EXIT.USAGE });
      outcome.result = { data: { shell: inv.args[0], script }, text: script.trimEnd() };
      return;
    }
    outcome.result = await (cmd.run as NonNullable<Cmd["run"]>)(ctx, inv);
  });

  // No command: onboarding without a config, else a menu (TTY) or the help.
  if (words.length === 0) {
    const interactive = isTTY && !flags.help && !flags.json && !flags.quiet;
    let welcome = "";
    if (!flags.help && ws.root && !hasConfig(ws.root)) {
      welcome = "No deployment config yet: `resinctl onboard` writes resinctl.toml and prepares local state.";
      if (!flags.json) stdout(`${paint(out, "bold", "Welcome to resinctl.")} ${welcome}\n`);
      if (interactive && (await prompter.confirm("Run onboarding now?"))) return main(["onboard", ...argv], io);
      if (!flags.json) stdout("\n");
    } else if (interactive) {
      const chosen = await prompter.select("resinctl: what do you want to do?", MENU);
      return chosen ? main([...chosen.split(" "), ...argv], io) : EXIT.OK;
    }
    let help = "";
    program.configureOutput({ writeOut: (t) => void (help += t) }).outputHelp();
    const exit = flags.help || welcome || isTTY ? EXIT.OK : EXIT.USAGE;
    if (flags.json && welcome) {
      stdout(`${JSON.stringify({ success: true, onboarding: true, message: welcome, help: help.trimEnd() })}\n`);
      return exit;
    }
    return emitHelp(help, exit);
  }

  const problem = commandProblem(words);
  if (problem) return fail(problem);

  let parseError = "";
  let helpOut = "";
  const quietly = (c: Command): void => {
    c.exitOverride().configureOutput({
      writeOut: (s) => void (helpOut += s),
      writeErr: (s) => void (parseError += s),
      outputError: (s) => void (parseError += s),
    });
    for (const sub of c.commands) quietly(sub);
  };
  quietly(program);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return helpOut ? emitHelp(helpOut, EXIT.OK) : EXIT.OK;
      // A group without its subcommand shows that group's help (commander wrote it to the error stream).
      if (e.code === "commander.help" || e.code === "commander.helpDisplayed")
        return emitHelp(parseError || helpOut, EXIT.USAGE);
      return fail(
        new CtlError("USAGE", e.message.replace(/^error: /, ""), {
          exit: EXIT.USAGE,
          hint: `resinctl ${words
            .filter((w) => !w.startsWith("-"))
            .slice(0, 2)
            .join(" ")} --help`,
        }),
      );
    }
    if (e instanceof CtlError) return fail(e);
    return fail(new CtlError("INTERNAL", e instanceof Error ? e.message : String(e), { exit: EXIT.ERROR }));
  }
  if (helpOut) return emitHelp(helpOut, EXIT.OK);
  const result = outcome.result;
  if (!result) return EXIT.OK;
  const exit = result.exit ?? EXIT.OK;
  // A workspace found from the cwd (or just created) is remembered for use from anywhere else.
  if (exit === EXIT.OK && ws.root && (ws.source === "cwd" || ws.source === "new") && ws.remembered !== ws.root)
    remember(ws.home, ws.root);
  if (flags.json) stdout(`${JSON.stringify({ success: exit === 0, ...(result.data ?? {}) })}\n`);
  else if (result.text !== undefined) stdout(`${result.text}\n`);
  if (out.rich && !flags.json && exit === 0) {
    stdout(
      `${paint(out, "gray", `done in ${formatDuration(Date.now() - started)}`)}${result.next ? paint(out, "cyan", `  -> next: ${result.next}`) : ""}\n`,
    );
  }
  return exit;
}
