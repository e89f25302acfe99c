// `resinctl disclaimer`: what resin is and is not.

import { leaf, type Cmd } from "../command.js";
import type { CmdResult } from "../context.js";

export const DISCLAIMER = `resin runs trading scripts for research and automation. Nothing it computes is financial advice.
Strategy events are forwarded to a trade service only when you configure one; alerts are never orders.
You are responsible for any orders your own services place.`;

export async function disclaimer(): Promise<CmdResult> {
  return { data: { disclaimer: DISCLAIMER }, text: DISCLAIMER };
}

export const commands: Record<string, Cmd> = {
  disclaimer: leaf("what resin is and is not", disclaimer, { noWorkspace: true }),
};
