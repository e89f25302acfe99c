// TradingView conformance of the time cases (base_time, timeframe_change, timeframe_in_seconds,
// session, session_24x7) through the public Runtime in both modes, each with its symbol.toml.
// Every cell must agree within 1e-9 relative (na must be na). A case that does not match yet is
// listed in KNOWN_FAILURES with its reason and runs as an expected failure (never loosened).
import { expect } from "vitest";
import { taConformanceSuite } from "../helpers/ta-suite.js";

const CASES = ["base_time", "timeframe_change", "timeframe_in_seconds", "session", "session_24x7"];
const KNOWN_FAILURES: Record<string, string> = {};

taConformanceSuite("time", CASES, {
  knownFailures: KNOWN_FAILURES,
  // one plot per exported column, nothing extra
  check: (c, r) => expect(Object.keys(r.series)).toHaveLength(c.headers.length),
});
