// Where the tests' data lives inside the repository, and how to read it. Every test that reads
// TradingView conformance data, the builtin catalogue source or a bench script takes its path from
// here, so a clone of the project alone (nothing beside it) runs the whole suite.
//
// Large data files (over 100 KB: long OHLCV series, long trade lists) are stored gzipped as
// `<name>.gz` to keep the checkout small; readData/dataExists take the plain name and look for
// either form, so callers never know which one a file is. Re-compress after editing a file with
// `gzip -n -9` (no name or time in the header, so identical files stay identical blobs).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

/** The project root (the folder holding package.json). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** tests/conformance/data: the copies of external ground truth (see its README for provenance). */
export const DATA = join(ROOT, "tests", "conformance", "data");

/** TradingView exports: ta/<case>, strategy/<case>, logs/<case> (trailing separator omitted). */
export const TRADINGVIEW = join(DATA, "tradingview");

/** The PineForge corpus (TradingView trade lists, tests/conformance/data/pineforge/README.md). */
export const PINEFORGE = join(DATA, "pineforge");

/** The builtin catalogue source, beside its generator scripts/gen-catalog.mjs. */
export const BUILTINS_JSON = join(ROOT, "scripts", "builtins.json");

/** The benchmark scripts and their hand-written floors. */
export const BENCH = join(ROOT, "bench");

/** The benchmark the README's table is measured on. */
export const BENCH10 = join(BENCH, "bench10.pine");

/** The language checklist (section.item numbering of tests/interpret/checklist-*.test.ts). */
export const LANGUAGE_CHECKLIST = join(ROOT, "docs", "spec", "language.md");

/** A path inside TRADINGVIEW, e.g. tradingview("strategy", "macd", "trades.csv"). */
export function tradingview(...parts: string[]): string {
  return join(TRADINGVIEW, ...parts);
}

/** Whether a data file exists, plain or gzipped. */
export function dataExists(path: string | URL): boolean {
  const p = typeof path === "string" ? path : fileURLToPath(path);
  return existsSync(p) || existsSync(p + ".gz");
}

/** A data file's text (UTF-8), read plain or from its `.gz` copy. */
export function readData(path: string | URL): string {
  const p = typeof path === "string" ? path : fileURLToPath(path);
  if (existsSync(p)) return readFileSync(p, "utf8");
  if (existsSync(p + ".gz")) return gunzipSync(readFileSync(p + ".gz")).toString("utf8");
  throw new Error(`test data not found: ${p} (nor ${p}.gz)`);
}
