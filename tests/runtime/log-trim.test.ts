// Pine Logs shows log.* messages right-trimmed (conformance logs/str_test_001_str); leading blanks stay.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

describe("log.* messages", () => {
  it("drop trailing blanks and keep leading ones", async () => {
    const src = `//@version=6
indicator("t")
if barstate.islast
    log.info(str.repeat("Hello ", 3))
    log.warning("  lead\\t \\n")
    log.error("{0}  ", 1.5)
`;
    const r = await runBoth(src, bars(3));
    expect(r.logs.map((l) => [l.level, l.message])).toEqual([
      ["info", "Hello Hello Hello"],
      ["warning", "  lead"],
      ["error", "1.5"],
    ]);
  });
});
