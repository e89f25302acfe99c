// resin serve [--port N (8787)] [--host 127.0.0.1] [--app] [--cors origins]: the HTTP API (and the
// chart app) on Node. Options are declared in index.ts.
// Runs are spread over worker threads loaded from dist/ (the built package); from TypeScript
// sources there is no worker build and runs are evaluated in-process.

import { HostError, startServer } from "../server/node/host.js";
import type { ServeOptions } from "./options.js";

export async function execute(args: ServeOptions): Promise<number> {
  const runner = process.env.SVC_RUNNER === "1" || process.env.SVC_RUNNER === "true";
  let server;
  try {
    const cors =
      args.cors === undefined
        ? undefined
        : args.cors.trim() === "*"
          ? ("*" as const)
          : args.cors
              .split(",")
              .map((o) => o.trim())
              .filter(Boolean);
    server = await startServer({
      port: args.port,
      host: args.host,
      app: !!args.app,
      startupCheck: runner,
      ...(cors ? { corsOrigins: cors } : {}),
    });
  } catch (e) {
    if (e instanceof HostError) {
      if (runner)
        console.error(
          JSON.stringify({ time: new Date().toISOString(), level: "error", event: "startup", message: e.message }),
        );
      else console.error(`resin serve: ${e.message}`);
      return 1;
    }
    throw e;
  }
  if (runner)
    console.log(
      JSON.stringify({
        time: new Date().toISOString(),
        event: "listening",
        url: server.url,
        engine: server.engineKind,
      }),
    );
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
      if (runner)
        console.log(JSON.stringify({ time: new Date().toISOString(), event: "shutdown", signal, inflight: pending }));
      else if (signal === "SIGTERM" || pending > 0)
        console.error(`resin serve: ${signal}, finishing ${pending} request(s)`);
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
