// TradingView conformance: base_na and series_if_for through the public Runtime in both modes.
// Every cell must agree within 1e-9 relative (na must be na). A case that does not match yet is
// listed in KNOWN_FAILURES with its reason and runs as an expected failure (never loosened).
import { taConformanceSuite } from "../helpers/ta-suite.js";

const CASES = ["base_na", "series_if_for"];
const KNOWN_FAILURES: Record<string, string> = {};

taConformanceSuite("base", CASES, { knownFailures: KNOWN_FAILURES });
