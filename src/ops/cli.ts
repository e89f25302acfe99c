// resinctl: the operations CLI (ops-cli.md) on commander. The command tree (tree.ts) becomes
// commander commands with their arguments, options, generated and sectioned help; the global flags
// (--json, --quiet, --no-color, -y/--yes) are program options recognised anywhere. What stays ours:
// workspace resolution (then chdir), the onboarding/menu when no command is given (@clack/prompts),
// "did you mean" and removed-command answers rendered as error cards (the spec's wording and the
// --json error body, which commander's own suggestion text cannot give), exit codes and the
// rich-terminal footer.

import { Command, CommanderError, InvalidArgumentError } from "commander";
import { VERSION } from "../core/version.js";
import { completionScript } from "../cli/completion.js";
import { createCtx, type CmdResult, type Ctx, type Flags, type Inv } from "./context.js";
import { CtlError, EXIT } from "./errors.js";
import { hasConfig } from "./config.js";
import { colorEnabled, editDistance, errorCard, formatDuration, paint, type OutputOptions } from "./output.js";
import type { ProcessRunner } from "./provider-cloudflare.js";
import { REMOVED, TREE, type Cmd } from "./tree.js";
import { resolveWorkspace } from "./workspace.js";

/** Questions on the terminal (onboarding and the menu); the default is @clack/prompts, tests inject answers. */
export interface Prompter {
  confirm(message: string): Promise<boolean>;
  /** The chosen value, or null when the user cancels. */
  select(message: string, choices: readonly string[]): Promise<string | null>;
}

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
};

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

  const ws = resolveWorkspace(env, io.cwd ?? process.cwd());
  if (ws.root && io.chdir !== false) process.chdir(ws.root);
  if (ws.root && env.SVC_CLI_SILENT !== "1" && !flags.quiet)
    stderr(`${paint(out, "gray", `workspace: ${ws.root} (${ws.source})`)}\n`);
  const ctx: Ctx = createCtx(ws, env, flags, out, io.fetch ?? fetch, io.runProcess);

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
    const interactive = isTTY && !flags.help && !flags.json && !flags.quiet && !!prompter;
    if (!flags.help && ws.root && !hasConfig(ws.root)) {
      stdout(
        `${paint(out, "bold", "Welcome to resinctl.")} No deployment config yet: \`resinctl onboard\` writes resinctl.toml and prepares local state.\n`,
      );
      if (interactive && (await prompter!.confirm("Run onboarding now?"))) return main(["onboard", ...argv], io);
      stdout("\n");
    } else if (interactive) {
      const chosen = await prompter!.select("resinctl: what do you want to do?", MENU);
      return chosen ? main([...chosen.split(" "), ...argv], io) : EXIT.OK;
    }
    let help = "";
    program.configureOutput({ writeOut: (t) => void (help += t) }).outputHelp();
    stdout(`${help.trimEnd()}\n`);
    return flags.help ? EXIT.OK : ws.root && !hasConfig(ws.root) ? EXIT.OK : isTTY ? EXIT.OK : EXIT.USAGE;
  }

  const problem = commandProblem(words);
  if (problem) return fail(problem);

  let parseError = "";
  const quietly = (c: Command): void => {
    c.exitOverride().configureOutput({
      writeOut: (s) => stdout(s),
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
      if (e.exitCode === 0) return EXIT.OK;
      // A group without its subcommand shows that group's help (commander wrote it to the error stream).
      if (e.code === "commander.help" || e.code === "commander.helpDisplayed") {
        stdout(parseError);
        return EXIT.USAGE;
      }
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
  const result = outcome.result;
  if (!result) return EXIT.OK;
  if (flags.json) stdout(`${JSON.stringify({ success: (result.exit ?? 0) === 0, ...(result.data ?? {}) })}\n`);
  else if (result.text !== undefined) stdout(`${result.text}\n`);
  if (out.rich && !flags.json && (result.exit ?? 0) === 0) {
    stdout(
      `${paint(out, "gray", `done in ${formatDuration(Date.now() - started)}`)}${result.next ? paint(out, "cyan", `  -> next: ${result.next}`) : ""}\n`,
    );
  }
  return result.exit ?? EXIT.OK;
}
