// What the route modules share (the engine, the default mode, the free tier, the client key, the run cap):
// built by createApp in app.ts and handed to each route module, which therefore never imports app.ts.
import type { Context } from "hono";
import type { Mode } from "../core/result.js";
import type { Engine } from "./engine.js";
import type { FreeTier } from "./limits.js";

/** What the route modules share. */
export interface RouteContext {
  engine: Engine;
  defaultMode: Mode;
  freeTier: FreeTier | null;
  clientKey: (c: Context) => string;
  /** The host's cap on a run's time budget (SVC_MAX_RUN_SECONDS, default 30): `timeout_seconds` can only lower it. */
  maxRunSeconds: number;
  /** The host's reader of a body's bytes (AppOptions.bodyBytes); the Request's text() where it gives null or there is none. */
  bodyBytes?: (c: Context) => Promise<Uint8Array> | null;
  /** The host's signal of a client gone away (AppOptions.clientGone); the Request's signal where it gives null or there is none. */
  clientGone?: (c: Context) => AbortSignal | null;
}

/**
 * A signal that aborts when the request's client goes away before its answer is written: the host's
 * (RouteContext.clientGone) where it has one, else the Request's own.
 */
export function clientSignal(ctx: Pick<RouteContext, "clientGone">, c: Context): AbortSignal {
  return ctx.clientGone?.(c) ?? c.req.raw.signal;
}
