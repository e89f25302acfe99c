// Shell completion generated from the commander trees of both CLIs, checked by running the bash
// script in a real bash (and the zsh/fish scripts for their shape).

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/index.js";
import { completionScript } from "../../src/cli/completion.js";

/** COMPREPLY of the bash script for a command line whose last word is being completed. */
function bashComplete(script: string, words: string[]): string[] {
  const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _resin_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["-c", program], { encoding: "utf8" }).split("\n").filter(Boolean);
}

describe("resin completion", () => {
  const script = completionScript(
    "bash",
    buildProgram(() => undefined),
  )!;

  it("bash completes subcommands and each command's options", () => {
    expect(bashComplete(script, ["resin", ""])).toEqual(
      expect.arrayContaining(["run", "check", "optimize", "serve", "completion"]),
    );
    expect(bashComplete(script, ["resin", "op"])).toEqual(["optimize"]);
    expect(bashComplete(script, ["resin", "run", "x.pine", "--da"])).toEqual(["--data", "--data-feed"]);
    expect(bashComplete(script, ["resin", "serve", "--p"])).toEqual(["--port"]);
  });

  it("zsh and fish scripts name every command; other shells have none", () => {
    const program = buildProgram(() => undefined);
    expect(completionScript("zsh", program)).toMatch(/compdef _resin_complete resin/);
    expect(completionScript("fish", program)).toMatch(
      /complete -c resin -f -n "__fish_use_subcommand" -a "run check optimize serve/,
    );
    expect(completionScript("tcsh", program)).toBeNull();
  });
});
