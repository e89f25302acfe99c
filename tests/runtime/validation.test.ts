// Runtime settings are validated: an unknown time zone, a malformed session, a bad tick size or an
// unreadable timeframe is an error_kind "data" result (never a throw, never a silent UTC / 24x7).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import type { RuntimeOptions } from "../../src/core/result.js";
import { bars } from "../helpers/run-both.js";

const src = `//@version=6
indicator("v")
plot(close)
`;

async function run(opts: RuntimeOptions) {
  return new Runtime("CHART", opts).run(src, bars(5));
}

describe("runtime settings validation", () => {
  it.each([
    [{ syminfo: { timezone: "Mars/Olympus" } }, /syminfo\.timezone "Mars\/Olympus" is not a time zone/],
    [{ syminfo: { session: "9:30-16" } }, /syminfo\.session "9:30-16" is not a session string/],
    [{ syminfo: { mintick: -1 } }, /syminfo\.mintick must be a positive number/],
    [{ timeframe: "banana" }, /timeframe "banana" is not a timeframe/],
    [{ timeframe: "" }, /timeframe "" is not a timeframe/],
    [{ timeframe: 60 as unknown as string }, /timeframe 60 is not a timeframe/],
  ] as [RuntimeOptions, RegExp][])("%j is a data error", async (opts, message) => {
    const r = await run(opts);
    expect(r.error_kind).toBe("data");
    expect(r.error).toMatch(message);
    expect(r.count).toBe(0);
  });
  it("valid settings run", async () => {
    for (const opts of [
      { timeframe: "1D", syminfo: { timezone: "America/New_York", session: "0930-1600:23456" } },
      { timeframe: "15" },
      { timeframe: "1S" },
      { syminfo: { timezone: "UTC+3" } },
    ]) {
      const r = await run(opts);
      expect(r.error, JSON.stringify(opts)).toBeUndefined();
      expect(r.count).toBe(5);
    }
  });
});
