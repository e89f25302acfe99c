// A local OpenAI-compatible chat-completions server that replays recorded completions in order and
// records the requests it got. Binds 127.0.0.1 on a free port, answers at most `completions.length`
// requests (then 500) and closes itself after `lifetimeMs` at the latest.
import { createServer, type Server } from "node:http";

export interface FakeLlm {
  baseUrl: string;
  requests: {
    headers: Record<string, string | string[] | undefined>;
    body: { model: string; messages: { role: string; content: string }[] };
  }[];
  close(): Promise<void>;
}

export async function startFakeLlm(
  completions: unknown[],
  opts: { status?: number; lifetimeMs?: number } = {},
): Promise<FakeLlm> {
  const requests: FakeLlm["requests"] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404).end();
        return;
      }
      requests.push({ headers: req.headers, body: JSON.parse(body) });
      const answer = completions[next++];
      if (opts.status || answer === undefined) {
        res
          .writeHead(opts.status ?? 500, { "content-type": "application/json" })
          .end('{"error":{"message":"replay exhausted"}}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), opts.lifetimeMs ?? 60_000);
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
