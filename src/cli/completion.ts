// Shell completion scripts (bash, zsh, fish) generated from a commander program: its subcommand
// tree (at any depth, aliases included) and each command's long options. Both CLIs (`resin`,
// `resinctl`) use it.
// Kept as our own code: commander has no completion, and the completion libraries (tabtab,
// @bomb.sh/tab, omelette) complete dynamically by starting the CLI on every Tab press, which
// costs a Node cold start (~100 ms or more) per key; a static script generated once from the same
// command tree answers instantly and stays in sync because it is generated, not written.

import type { Command } from "commander";

export const SHELLS = ["bash", "zsh", "fish"] as const;

interface Node {
  /** The command path below the program ("" for the program itself, "deploy rollback", ...). */
  path: string;
  words: string[];
}

function visible(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
}

function optionWords(cmd: Command): string[] {
  return cmd.options.filter((o) => !o.hidden && o.long).map((o) => o.long as string);
}

/** Every command path with the words that may follow it (subcommands, aliases, long options). */
function nodes(cmd: Command, prefix: string[] = []): Node[] {
  const subs = visible(cmd);
  const words = [...subs.flatMap((c) => [c.name(), ...c.aliases()]), ...optionWords(cmd), "--help"];
  const out: Node[] = [{ path: prefix.join(" "), words }];
  for (const c of subs) {
    for (const name of [c.name(), ...c.aliases()]) out.push(...nodes(c, [...prefix, name]));
  }
  return out;
}

/** The script for `shell`, or null for a shell we do not support; `aliases` are other names of the binary (resinctl's rctl). */
export function completionScript(shell: string, program: Command, aliases: readonly string[] = []): string | null {
  const name = program.name();
  const fn = `_${name.replace(/[^A-Za-z0-9_]/g, "_")}_complete`;
  const all = nodes(program);
  const bins = [name, ...aliases].join(" ");
  // Words before the cursor extend the command path only while they name a deeper command
  // (positional arguments such as file names do not).
  const known = `|${all.map((n) => n.path).join("|")}|`;
  if (shell === "bash") {
    const cases = all.map((n) => `    "${n.path}") words="${n.words.join(" ")}";;`).join("\n");
    return `# ${name} bash completion: eval "$(${name} completion bash)"
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" next w i known="${known}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${path:+$path }$w"
    [[ "$known" == *"|$next|"* ]] && path="$next"
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F ${fn} ${bins}
`;
  }
  if (shell === "zsh") {
    const cases = all.map((n) => `    "${n.path}") compadd -- ${n.words.join(" ")};;`).join("\n");
    return `#compdef ${bins}
# ${name} zsh completion: eval "$(${name} completion zsh)"
${fn}() {
  local path="" next w known="${known}"
  for w in "\${(@)words[2,CURRENT-1]}"; do
    [[ "$w" == -* ]] && continue
    next="\${path:+$path }$w"
    [[ "$known" == *"|$next|"* ]] && path="$next"
  done
  case "$path" in
${cases}
  esac
}
compdef ${fn} ${bins}
`;
  }
  if (shell === "fish") {
    const lines = [`# ${name} fish completion: ${name} completion fish | source`];
    for (const bin of [name, ...aliases]) {
      for (const n of all) {
        const cond =
          n.path === "" ? "__fish_use_subcommand" : `__fish_seen_subcommand_from ${n.path.split(" ").at(-1)}`;
        lines.push(`complete -c ${bin} -f -n "${cond}" -a "${n.words.filter((w) => !w.startsWith("-")).join(" ")}"`);
      }
    }
    return `${lines.join("\n")}\n`;
  }
  return null;
}
