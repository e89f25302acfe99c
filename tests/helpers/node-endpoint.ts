// A Node MessagePort as a Comlink endpoint, for tests that drive the worker pool over worker_threads channels.
import type { MessagePort } from "node:worker_threads";

/** A Node MessagePort as a Comlink endpoint (message events only). */
export function nodeEndpoint(port: MessagePort) {
  const wrapped = new Map<unknown, (data: unknown) => void>();
  return {
    postMessage: (msg: unknown, transfer?: unknown[]) => port.postMessage(msg, transfer as never),
    addEventListener: (type: string, h: any) => {
      if (type !== "message") return;
      const l = (data: unknown) => (typeof h === "function" ? h({ data }) : h.handleEvent({ data }));
      wrapped.set(h, l);
      port.on("message", l);
    },
    removeEventListener: (_type: string, h: any) => {
      const l = wrapped.get(h);
      if (l) port.off("message", l);
    },
  };
}
