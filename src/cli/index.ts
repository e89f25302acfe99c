// The evaluator CLI `resin`: parses the command line and hands each subcommand to its module.
// Exit codes (service.md 5): 0 ok, 1 script or run error, 2 usage error.

export type CommandFn = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ command: CommandFn }> }> = {
  run: { summary: "run a script against bars and print plots (and trades)", load: () => import("./run.js") },
  check: { summary: "parse and check a script, print diagnostics", load: () => import("./check.js") },
  optimize: { summary: "search a strategy's inputs", load: () => import("./optimize.js") },
  serve: { summary: "serve the HTTP API (and the chart app with --app)", load: () => import("./serve.js") },
  bench: { summary: "run the benchmark suite and print ratios", load: () => import("./bench.js") },
  coverage: { summary: "implemented builtins vs the v6 catalogue", load: () => import("./coverage.js") },
};

export function usage(): string {
  const lines = ["Usage: resin <command> [options]", "", "Commands:"];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(10)} ${c.summary}`);
  lines.push(
    "",
    "Examples:",
    "  resin run script.pine --bars 200",
    "  resin run script.pine --data bars.csv --json",
    "  resin check script.pine",
    "  resin optimize strategy.pine --trials 50 --seed 1",
    "  resin serve --port 8787",
    "",
    "Run `resin <command> --help` for a command's options.",
  );
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const { VERSION } = await import("../core/version.js");
    console.log(VERSION);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    console.error(`resin: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const mod = await cmd.load();
  return mod.command(rest);
}
