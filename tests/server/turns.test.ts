// The worker entry's turns (src/server/node/turns.ts): two jobs a thread received together run one
// after the other, and the first is answered (as tinypool answers: after its handler's promise
// settles) before the second starts, so a thread holding two jobs works on the second while the
// first one's answer travels. Without turns both would run before either answer went out.

import { describe, expect, it } from "vitest";
import { createTurns } from "../../src/server/node/turns.js";

/** tinypool's worker loop, reduced: each job's handler started at once, its answer posted once the handler settles. */
function receive(handler: (name: string) => Promise<unknown>, names: string[], log: string[]): Promise<void>[] {
  return names.map(async (name) => {
    try {
      await handler(name);
    } catch {
      // tinypool answers an error the same way
    }
    log.push(`answer ${name}`);
  });
}

describe("worker turns", () => {
  it("the jobs a thread holds run in turn, each answered before the next starts", async () => {
    const inTurn = createTurns();
    const log: string[] = [];
    const job = (name: string) =>
      inTurn(async () => {
        log.push(`start ${name}`);
        if (name === "b") throw new Error("a failing job keeps its turn");
        log.push(`end ${name}`);
      });
    await Promise.all(receive(job, ["a", "b", "c"], log));
    expect(log).toEqual(["start a", "end a", "answer a", "start b", "answer b", "start c", "end c", "answer c"]);
  });

  it("without turns the jobs would interleave and be answered together (what turns prevent)", async () => {
    const log: string[] = [];
    const job = async (name: string) => {
      await Promise.resolve();
      log.push(`start ${name}`);
    };
    await Promise.all(receive(job, ["a", "b"], log));
    expect(log).toEqual(["start a", "start b", "answer a", "answer b"]);
  });
});
