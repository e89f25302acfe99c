// POST /optimize (service.md 2.3): schema, free-tier sizes, then the optimize module's checks and
// study; trials run through the engine (spread over the worker pool in Node), each under the host's
// run cap, and are cancelled when the client disconnects. Trials are lean; the winner is re-run in
// full for the answer's best_result (what /run with its inputs answers, without events), which its
// thread writes as JSON (answer-json.ts).

import type { Hono } from "hono";
import {
  OptimizeAbortedError,
  OptimizeError,
  prepareStudy,
  runStudy,
  type OptimizeRequest,
  type TrialRunner,
} from "../optimize/index.js";
import { clientSignal, type RouteContext } from "./route-context.js";
import { ApiError } from "./errors.js";
import { columnStudyData, studyFullJsonRunner, studyTrialRunner, TRIAL_BROKER, trialsPerMessage } from "./engine.js";
import { optimizeAnswerJson } from "./answer-json.js";
import { checkLibraries, engineFailure, guarded, librarySourceChars } from "./request.js";
import { OPTIMIZE_SCHEMA } from "./schemas.js";
import { barCount } from "./validate.js";

export function registerOptimizeRoute(app: Hono, ctx: RouteContext): void {
  app.post("/optimize", (c) =>
    guarded(ctx, c, OPTIMIZE_SCHEMA, async (body) => {
      const libraries = checkLibraries(body.libraries as unknown[]);
      ctx.freeTier?.checkSize([(body.script as string).length + librarySourceChars(libraries)], barCount(body.data));
      // columns go into the study without a row object per bar when only columns are read (engine.ts);
      // rows sent are read into columns and let go here (not kept, and promoted, for the whole study)
      const columns = columnStudyData(ctx.engine, body.data);
      if (columns) body.data = null;
      let study;
      try {
        study = prepareStudy({ ...body, ...(columns ? { data: columns } : {}) } as unknown as OptimizeRequest);
      } catch (err) {
        if (err instanceof OptimizeError) throw new ApiError(400, err.code, err.message, err.details);
        throw err;
      }
      const symbol = body.symbol as string;
      const signal = clientSignal(ctx, c);
      const job = {
        script: study.script,
        symbol,
        options: {
          mode: "auto" as const,
          timeoutSeconds: ctx.maxRunSeconds,
          ...(libraries.length ? { libraries } : {}),
        },
      };
      // a few trials a message to a thread (trial-batches.ts), as many a batch of the study
      const perMessage = trialsPerMessage(ctx.engine, study.nTrials);
      const trial = studyTrialRunner(ctx.engine, study, { ...job, broker: TRIAL_BROKER }, { signal }, perMessage);
      // (the winner's result comes back as the JSON text its thread wrote: answer-json.ts)
      const fullRun = studyFullJsonRunner(ctx.engine, job, { signal });
      const runner: TrialRunner = (inputs, bars, range) =>
        trial(inputs, bars, range).catch((err: unknown) => {
          // A trial whose thread had to be terminated is a failed trial with its code; a cancelled one ends the study.
          const coded = engineFailure(err);
          if (coded instanceof ApiError && (coded.code === "RUN_DEADLINE_EXCEEDED" || coded.code === "MEMORY_LIMIT"))
            throw new Error(`${coded.code}: ${coded.message}`);
          throw coded;
        });
      let result;
      try {
        result = await runStudy(study, runner, {
          concurrency: ctx.engine.concurrency,
          batchSize: perMessage,
          signal,
          fullRun,
        });
      } catch (err) {
        if (err instanceof OptimizeAbortedError)
          throw new ApiError(499, "CLIENT_CLOSED", "the study was cancelled (client disconnected)");
        throw err;
      }
      return c.body(optimizeAnswerJson(result), 200, { "Content-Type": "application/json" });
    }),
  );
}
