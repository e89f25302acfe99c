// POST /backtest/quick (service.md 2.4): the demo SMA-crossover simulator.

import type { Hono } from "hono";
import type { Bar } from "../core/result.js";
import type { RouteContext } from "./route-context.js";
import { firstBadBar, quickBacktest } from "./backtest.js";
import { ApiError } from "./errors.js";
import { readBody } from "./request.js";
import { BACKTEST_SCHEMA } from "./schemas.js";

export function registerBacktestRoute(app: Hono, ctx: RouteContext): void {
  app.post("/backtest/quick", async (c) => {
    const body = await readBody(c, BACKTEST_SCHEMA, ctx);
    const data = body.data as unknown[];
    if (data.length === 0) throw new ApiError(400, "NO_DATA", "data has no bars");
    const bad = firstBadBar(data);
    if (bad >= 0) {
      throw new ApiError(
        400,
        "INVALID_FIELD",
        `data[${bad}] is not a valid bar (finite time/open/high/low/close, increasing time, high >= low)`,
        { field: "data", index: bad },
      );
    }
    const fast = body.fast as number;
    const slow = body.slow as number;
    if (fast >= slow) throw new ApiError(400, "INVALID_FIELD", "fast must be shorter than slow", { field: "fast" });
    const capital = body.initial_capital as number;
    if (!(capital > 0))
      throw new ApiError(400, "INVALID_FIELD", "initial_capital must be positive", { field: "initial_capital" });
    const result = quickBacktest(data as Bar[], {
      fast,
      slow,
      initial_capital: capital,
      commission_pct: body.commission_pct as number,
      slippage: body.slippage as number,
      allow_short: body.allow_short as boolean,
    });
    return c.json({ status: "success", ...result }, 200);
  });
}
