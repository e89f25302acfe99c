// resinctl: the operations CLI (ops-cli.md). Global flags, workspace resolution (then chdir),
// command dispatch with "did you mean", sectioned help, error cards / JSON errors, exit codes and
// the rich-terminal footer.

import { VERSION } from "../core/version.js";
import { completionScript } from "./completion.js";
import { createCtx, type CmdResult, type Flags } from "./context.js";
import { CtlError, EXIT } from "./errors.js";
import { hasConfig } from "./config.js";
import { colorEnabled, editDistance, errorCard, formatDuration, paint, type OutputOptions } from "./output.js";
import type { ProcessRunner } from "./provider-cloudflare.js";
import { REMOVED, TREE, type Cmd } from "./tree.js";
import { resolveWorkspace } from "./workspace.js";

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
  /** Asks one question on the terminal (onboarding and the menu); absent -> no prompts. */
  prompt?: (question: string) => Promise<string>;
}

/** The interactive menu shown on a TTY when resinctl runs without a command. */
const MENU = ["check health", "workers list", "dev start", "deploy all", "script health", "doctor"];

/** A readline prompt on stdin/stdout. */
export async function terminalPrompt(question: string): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

const GLOBAL_FLAGS = new Set(["--json", "--quiet", "--no-color", "--help", "-h", "--version", "-V", "-y", "--yes"]);

function helpFor(path: string[], cmd: Cmd | null, o: OutputOptions): string {
  const h = (s: string) => paint(o, "bold", s);
  const name = ["resinctl", ...path].join(" ");
  const lines: string[] = [];
  const entries = cmd ? cmd.sub : TREE;
  if (cmd) lines.push(`${name}: ${cmd.summary}`, "");
  lines.push(h("Usage"), `  ${cmd?.usage ?? `${name} ${entries ? "<command>" : ""} [options]`.replace(/\s+\[/, " [")}`, "");
  if (entries) {
    lines.push(h("Commands"));
    const width = Math.max(...Object.keys(entries).map((k) => k.length));
    for (const [k, c] of Object.entries(entries)) lines.push(`  ${k.padEnd(width)}  ${c.summary}${c.aliases ? ` (aliases: ${c.aliases.join(", ")})` : ""}`);
    lines.push("");
  }
  lines.push(h("Options"), "  --json        machine-readable output on stdout", "  --quiet       no headers, banners or prompts", "  --no-color    plain output (also NO_COLOR=1, TERM=dumb)", "  -y, --yes     skip confirmations", "  -h, --help    this help", "  -V, --version print the version", "");
  const examples = cmd?.examples ?? (cmd ? [] : ["resinctl onboard", "resinctl dev start", "resinctl deploy worker resin", "resinctl script run strategy.pine --bars 200"]);
  if (examples.length) lines.push(h("Examples"), ...examples.map((e) => `  ${e}`), "");
  const see = cmd?.seeAlso ?? (cmd ? [] : ["resinctl doctor", "resinctl completion bash"]);
  if (see.length) lines.push(h("See also"), ...see.map((s) => `  ${s.startsWith("resinctl") ? s : `resinctl ${s}`}`));
  return lines.join("\n").trimEnd();
}

function allPaths(tree: Record<string, Cmd>, prefix: string[] = []): string[] {
  return Object.entries(tree).flatMap(([k, c]) => [[...prefix, k].join(" "), ...(c.aliases ?? []).map((a) => [...prefix, a].join(" ")), ...(c.sub ? allPaths(c.sub, [...prefix, k]) : [])]);
}

function lookup(entries: Record<string, Cmd>, word: string): [string, Cmd] | null {
  if (entries[word]) return [word, entries[word] as Cmd];
  for (const [k, c] of Object.entries(entries)) if (c.aliases?.includes(word)) return [k, c];
  return null;
}

export async function main(argv: string[], io: CliIO = {}): Promise<number> {
  const env = io.env ?? (process.env as Record<string, string | undefined>);
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const isTTY = io.isTTY ?? !!process.stdout.isTTY;
  const flags: Flags = { json: argv.includes("--json"), quiet: argv.includes("--quiet"), yes: argv.includes("-y") || argv.includes("--yes"), help: argv.includes("--help") || argv.includes("-h") };
  const color = !flags.json && colorEnabled(argv, env, isTTY);
  const out: OutputOptions = { json: flags.json, quiet: flags.quiet, color, rich: color && isTTY && !flags.quiet, write: stdout, writeErr: stderr };
  const args = argv.filter((a) => !GLOBAL_FLAGS.has(a));
  const started = Date.now();

  const fail = (e: CtlError): number => {
    if (flags.json) {
      stdout(`${JSON.stringify({ success: false, error: e.message, code: e.code, ...(e.hint ? { hint: e.hint } : {}), ...(e.suggestions ? { suggestions: e.suggestions } : {}) })}\n`);
    } else stderr(`${errorCard(out, e)}\n`);
    return e.exitCode;
  };

  if (argv.includes("--version") || argv.includes("-V")) {
    stdout(flags.json ? `${JSON.stringify({ success: true, version: VERSION })}\n` : `${VERSION}\n`);
    return EXIT.OK;
  }

  const ws = resolveWorkspace(env, io.cwd ?? process.cwd());
  if (ws.root && io.chdir !== false) process.chdir(ws.root);
  if (ws.root && env.SVC_CLI_SILENT !== "1" && !flags.quiet) stderr(`${paint(out, "gray", `workspace: ${ws.root} (${ws.source})`)}\n`);
  const ctx = createCtx(ws, env, flags, out, io.fetch ?? fetch, io.runProcess);

  // No command: onboarding without a config, else a menu (TTY) or the help.
  if (args.length === 0) {
    const interactive = isTTY && !flags.help && !flags.json && !flags.quiet && !!io.prompt;
    if (!flags.help && ws.root && !hasConfig(ws.root)) {
      stdout(`${paint(out, "bold", "Welcome to resinctl.")} No deployment config yet: \`resinctl onboard\` writes resinctl.toml and prepares local state.\n`);
      if (interactive && /^(y|yes|)$/i.test((await io.prompt!("Run onboarding now? [Y/n] ")).trim())) return main(["onboard", ...argv], io);
      stdout("\n");
    } else if (interactive) {
      const menu = MENU.map((m, i) => `  ${i + 1}) ${m.padEnd(28)}`).join("\n");
      stdout(`${paint(out, "bold", "resinctl")}: what do you want to do?\n${menu}\n`);
      const pick = Number((await io.prompt!("choice (enter to quit): ")).trim());
      const chosen = MENU[pick - 1];
      return chosen ? main([...chosen.split(" "), ...argv], io) : EXIT.OK;
    }
    stdout(`${helpFor([], null, out)}\n`);
    return flags.help ? EXIT.OK : ws.root && !hasConfig(ws.root) ? EXIT.OK : isTTY ? EXIT.OK : EXIT.USAGE;
  }

  // Walk the tree.
  const path: string[] = [];
  let entries: Record<string, Cmd> | undefined = TREE;
  let cmd: Cmd | null = null;
  let rest = args;
  while (rest.length && entries) {
    const word = rest[0] as string;
    if (word.startsWith("-")) break;
    const removed = REMOVED[[...path, word].join(" ")];
    if (removed) return fail(new CtlError("REMOVED", `'resinctl ${[...path, word].join(" ")}' was removed; use 'resinctl ${removed}'`, { exit: EXIT.USAGE, suggestions: [`resinctl ${removed}`] }));
    const hit = lookup(entries, word);
    if (!hit) {
      const full = [...path, word].join(" ");
      const close = allPaths(TREE).filter((p) => p.split(" ").length === path.length + 1 && editDistance(p, full) <= 2);
      const msg = close.length ? `unknown command '${full}'. did you mean '${close[0]}' ?` : `unknown command '${full}'`;
      return fail(new CtlError("UNKNOWN_COMMAND", msg, { exit: EXIT.USAGE, suggestions: close.map((c) => `resinctl ${c}`), hint: "resinctl --help lists the commands" }));
    }
    path.push(hit[0]);
    cmd = hit[1];
    entries = cmd.sub;
    rest = rest.slice(1);
  }
  if (!cmd || flags.help || (!cmd.run && cmd.sub)) {
    stdout(`${helpFor(path, cmd, out)}\n`);
    return flags.help || !cmd ? EXIT.OK : EXIT.USAGE;
  }

  try {
    let result: CmdResult;
    if (path[0] === "completion") {
      const script = completionScript(rest[0] ?? "", TREE);
      if (!script) throw new CtlError("USAGE", "completion needs a shell: bash, zsh or fish", { exit: EXIT.USAGE });
      result = { data: { shell: rest[0], script }, text: script.trimEnd() };
    } else result = await (cmd.run as NonNullable<Cmd["run"]>)(ctx, rest);
    if (flags.json) stdout(`${JSON.stringify({ success: (result.exit ?? 0) === 0, ...(result.data ?? {}) })}\n`);
    else if (result.text !== undefined) stdout(`${result.text}\n`);
    if (out.rich && !flags.json && (result.exit ?? 0) === 0) {
      stdout(`${paint(out, "gray", `done in ${formatDuration(Date.now() - started)}`)}${result.next ? paint(out, "cyan", `  -> next: ${result.next}`) : ""}\n`);
    }
    return result.exit ?? EXIT.OK;
  } catch (e) {
    if (e instanceof CtlError) return fail(e);
    return fail(new CtlError("INTERNAL", e instanceof Error ? e.message : String(e), { exit: EXIT.ERROR }));
  }
}
