// resin serve [--port N (8787)] [--host 127.0.0.1] [--app]: the HTTP API (and the chart app) on Node.
// Runs are spread over worker threads loaded from dist/ (the built package); from TypeScript
// sources there is no worker build and runs are evaluated in-process.

import { HostError, startServer } from "../server/node/host.js";

const HELP = `Usage: resin serve [--port N] [--host ADDR] [--app]

Serve the HTTP API (/run, /run/batch, /optimize, /backtest/quick, /health).

Options:
  --port N      port to listen on (default 8787; 0 picks a free port)
  --host ADDR   address to bind (default 127.0.0.1)
  --app         also serve the built chart app (dist-web/) at /
  -h, --help    show this help

Environment:
  FREE_TIER_LIMITS=1   enable the free-tier guards (FREE_MAX_BARS, FREE_MAX_SCRIPT_CHARS,
                       FREE_MAX_CONCURRENT, FREE_RATE_LIMIT, FREE_RATE_WINDOW_SEC)
  SVC_RUNNER=1         hosted runner: JSON log line per request, graceful SIGTERM

Examples:
  resin serve
  resin serve --app --port 0`;

interface ServeArgs {
  port: number;
  host: string;
  app: boolean;
}

function parseArgs(argv: string[]): ServeArgs | string {
  const out: ServeArgs = { port: 8787, host: "127.0.0.1", app: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === "--app") out.app = true;
    else if (flag === "--port" || flag === "-p") {
      const v = value();
      const n = Number(v);
      if (v === undefined || !/^\d+$/.test(v) || n > 65535) return `--port needs a number between 0 and 65535 (got ${v ?? "nothing"})`;
      out.port = n;
    } else if (flag === "--host") {
      const v = value();
      if (!v) return "--host needs an address";
      out.host = v;
    } else return `unknown option '${a}'`;
  }
  return out;
}

export async function command(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") {
    console.error(`resin serve: ${args}\n\n${HELP}`);
    return 2;
  }
  const runner = process.env.SVC_RUNNER === "1" || process.env.SVC_RUNNER === "true";
  let server;
  try {
    server = await startServer({ port: args.port, host: args.host, app: args.app, startupCheck: runner });
  } catch (e) {
    if (e instanceof HostError) {
      if (runner) console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", event: "startup", message: e.message }));
      else console.error(`resin serve: ${e.message}`);
      return 1;
    }
    throw e;
  }
  if (runner) console.log(JSON.stringify({ time: new Date().toISOString(), event: "listening", url: server.url, engine: server.engineKind }));
  else console.log(`resin serving on ${server.url}`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        // A second signal while draining: stop now.
        resolve(130);
        return;
      }
      stopping = true;
      const pending = server.inflight();
      if (runner) console.log(JSON.stringify({ time: new Date().toISOString(), event: "shutdown", signal, inflight: pending }));
      else if (signal === "SIGTERM" || pending > 0) console.error(`resin serve: ${signal}, finishing ${pending} request(s)`);
      // Drains for at most SVC_DRAIN_SECONDS; past it the remaining runs are ended and the exit code is 1.
      server.close().then(
        (inTime) => resolve(inTime ? 0 : 1),
        () => resolve(1),
      );
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
}
