// `resinctl test`: the verification pipeline, in order, stopping at nothing so the report is
// whole: prerequisites, setup, config schema, SQL migrations, the five repair checks, and (when
// the edge worker runs) its health and a small script run. Exit 4 when any step fails.

import { leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx } from "../context.js";
import { EXIT } from "../errors.js";
import { table } from "../output.js";
import { callWorker, syntheticBars } from "../worker-client.js";
import { commands as check } from "./check.js";
import { runChecks } from "./repair.js";
import { commands as schema } from "./schema.js";

async function step(
  name: string,
  fn: () => Promise<CmdResult | string>,
): Promise<{ step: string; status: string; detail: string }> {
  try {
    const r = await fn();
    if (typeof r === "string") return { step: name, status: "ok", detail: r };
    return {
      step: name,
      status: (r.exit ?? 0) === 0 ? "ok" : "failed",
      detail: (r.text ?? "").split("\n").slice(-1)[0] ?? "",
    };
  } catch (e) {
    return { step: name, status: "failed", detail: (e as Error).message };
  }
}

async function pipeline(ctx: Ctx): Promise<CmdResult> {
  const inv = { args: [], opts: {} };
  const leafOf = (c: Record<string, Cmd>, g: string, l: string) => c[g]?.sub?.[l]?.run as NonNullable<Cmd["run"]>;
  const steps = [
    await step("prerequisites", () => leafOf(check, "check", "prerequisites")(ctx, inv)),
    await step("setup", () => leafOf(check, "check", "setup")(ctx, inv)),
    await step("config schema", () => leafOf(schema, "schema", "validate")(ctx, inv)),
  ];
  for (const s of await runChecks(ctx)) steps.push({ step: `repair ${s.step}`, status: s.status, detail: s.detail });
  if (ctx.local().runningUrl("resin")) {
    steps.push(await step("edge health", async () => `${(await callWorker(ctx, "GET", "/health")).json.status}`));
    steps.push(
      await step("edge run", async () => {
        const { json } = await callWorker(ctx, "POST", "/run", {
          script: '//@version=6\nindicator("t")\nplot(close)\n',
          data: syntheticBars(10),
        });
        return `${json.count} bars, mode ${json.mode}`;
      }),
    );
  } else steps.push({ step: "edge worker", status: "skipped", detail: "not running (resinctl dev start)" });
  const failed = steps.filter((s) => s.status === "failed").length;
  return {
    data: { steps, failed },
    text: `${table(
      ctx.out,
      ["step", "status", "detail"],
      steps.map((s) => [s.step, s.status, s.detail]),
    )}\n${failed ? `${failed} failed` : "all passed"}`,
    ...(failed ? { exit: EXIT.FAILED } : {}),
  };
}

export const commands: Record<string, Cmd> = {
  test: leaf("the verification pipeline (prerequisites, setup, schema, repair checks, the running worker)", pipeline),
};
