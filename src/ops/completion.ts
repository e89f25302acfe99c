// Shell completion scripts generated from the command tree.

import type { Cmd } from "./tree.js";

function words(tree: Record<string, Cmd>): Record<string, string[]> {
  const out: Record<string, string[]> = { "": Object.keys(tree).flatMap((k) => [k, ...(tree[k]?.aliases ?? [])]) };
  for (const [k, c] of Object.entries(tree)) if (c.sub) out[k] = Object.keys(c.sub);
  return out;
}

export function completionScript(shell: string, tree: Record<string, Cmd>): string | null {
  const w = words(tree);
  const top = (w[""] as string[]).join(" ");
  const groups = Object.entries(w).filter(([k]) => k);
  if (shell === "bash") {
    const cases = groups.map(([k, v]) => `    ${k}) COMPREPLY=($(compgen -W "${v.join(" ")}" -- "$cur"));;`).join("\n");
    return `# resinctl bash completion: eval "$(resinctl completion bash)"
_resinctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${top} --help --version --json" -- "$cur")); return; fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
}
complete -F _resinctl resinctl rctl
`;
  }
  if (shell === "zsh") {
    const cases = groups.map(([k, v]) => `    ${k}) compadd ${v.join(" ")};;`).join("\n");
    return `#compdef resinctl rctl
# resinctl zsh completion: eval "$(resinctl completion zsh)"
_resinctl() {
  if (( CURRENT == 2 )); then compadd ${top}; return; fi
  case "$words[2]" in
${cases}
  esac
}
compdef _resinctl resinctl rctl
`;
  }
  if (shell === "fish") {
    const lines = [`# resinctl fish completion: resinctl completion fish | source`, `complete -c resinctl -f -n "__fish_use_subcommand" -a "${top}"`];
    for (const [k, v] of groups) lines.push(`complete -c resinctl -f -n "__fish_seen_subcommand_from ${k}" -a "${v.join(" ")}"`);
    return `${lines.join("\n")}\n`;
  }
  return null;
}
