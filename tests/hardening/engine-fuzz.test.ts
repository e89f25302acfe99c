// A seeded, bounded fuzz run through parse, check and both backends (issue 16): random bytes, token
// soup and mutations of the corpus scripts. Each input runs with a 0.5 s budget; the assertions are
// that every run comes back as a result (never a throw), that an error is a coded one (a known
// error_kind, never a raw internal such as a stack overflow or a WebAssembly trap), that interpret and
// compile agree on whether and how a script fails, and that resident memory stays under a ceiling.
// The count is fixed so the whole file stays well under a minute; the seed makes a failure replayable.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { createRng, type Rng } from "../../src/optimize/prng.js";
import { bars } from "../helpers/run-both.js";

const SEED = 16_2026;
const PER_KIND = 150;
/** Resident memory the process may reach while fuzzing (the vitest worker included). */
const RSS_CEILING = 1536 * 2 ** 20;
const KINDS = new Set(["parse", "check", "runtime", "data", "order", "mode", "compile"]);
const RAW =
  /Maximum call stack|RuntimeError: |memory access out of bounds|unreachable|is not a function|Cannot read properties/;

const corpusDir = join(__dirname, "..", "corpus");
const corpus = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".pine"))
  .sort()
  .map((f) => readFileSync(join(corpusDir, f), "utf8"));

const TOKENS = [
  "//@version=6\n",
  "indicator('f')\n",
  "strategy('s')\n",
  "plot(",
  ")",
  "(",
  "[",
  "]",
  "close",
  "x",
  "=",
  ":=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "?",
  ":",
  "and",
  "or",
  "not",
  "if ",
  "for i = 0 to ",
  "while ",
  "=>",
  "\n",
  "\n    ",
  ",",
  "1",
  "1e9",
  "na",
  "true",
  "ta.sma(",
  "ta.pivothigh(",
  "array.new_float(",
  "matrix.new<float>(",
  ".push(",
  "[1]",
  "[5000]",
  "var ",
  '"s"',
  "=>\n    ",
  "switch ",
  "type T\n    float f\n",
  "T.new()",
  "request.security(syminfo.tickerid, 'D', ",
];

function randomBytes(rng: Rng): string {
  const n = rng.int(0, 400);
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.next() < 0.8 ? rng.int(9, 126) : rng.int(0, 0xffff));
  return rng.next() < 0.5 ? `//@version=6\nindicator("f")\n${s}` : s;
}

function tokenSoup(rng: Rng): string {
  let s = "//@version=6\nindicator('f')\n";
  const n = rng.int(1, 120);
  for (let i = 0; i < n; i++) s += TOKENS[rng.int(0, TOKENS.length - 1)];
  return s;
}

function mutate(rng: Rng): string {
  const src = corpus[rng.int(0, corpus.length - 1)]!;
  const lines = src.split("\n");
  const edits = rng.int(1, 4);
  for (let e = 0; e < edits; e++) {
    const i = rng.int(0, Math.max(0, lines.length - 1));
    const line = lines[i] ?? "";
    switch (rng.int(0, 5)) {
      case 0:
        lines.splice(i, 1);
        break; // drop a line
      case 1:
        lines.splice(i, 0, line);
        break; // duplicate it
      case 2: {
        // cut it short
        lines[i] = line.slice(0, rng.int(0, line.length));
        break;
      }
      case 3:
        lines[i] = line.replace(/\d+/, () => String(rng.next() < 0.5 ? 0 : 10 ** rng.int(3, 10)));
        break; // extreme numbers
      case 4:
        lines[i] = line + TOKENS[rng.int(0, TOKENS.length - 1)];
        break; // a stray token
      default: {
        // swap two lines
        const j = rng.int(0, lines.length - 1);
        [lines[i], lines[j]] = [lines[j] ?? "", line];
      }
    }
  }
  return lines.join("\n");
}

async function runEach(source: string): Promise<void> {
  const rt = new Runtime();
  const data = bars(60);
  const results = [];
  for (const mode of ["interpret", "compile"] as const) {
    let r;
    try {
      r = await rt.run(source, data, { mode, timeoutSeconds: 0.5 });
    } catch (err) {
      throw new Error(`run threw (${mode}) for:\n${source}\n${String(err)}`);
    }
    if (r.error !== undefined) {
      expect(KINDS.has(r.error_kind ?? ""), `${r.error_kind}: ${r.error}\n${source}`).toBe(true);
      expect(r.error, source).not.toMatch(RAW);
      expect(r.error, source).not.toMatch(/^internal error/);
    }
    results.push(r);
  }
  // both backends agree on whether and how the script failed (a timeout may stop them at different bars)
  const [a, b] = results;
  if (!a!.timed_out && !b!.timed_out) expect([b!.error_kind, b!.error], source).toEqual([a!.error_kind, a!.error]);
  expect(process.memoryUsage().rss).toBeLessThan(RSS_CEILING);
}

describe(`fuzz (seed ${SEED}, ${PER_KIND} inputs per kind, both backends)`, () => {
  for (const [name, make, seed] of [
    ["random bytes", randomBytes, SEED],
    ["token soup", tokenSoup, SEED + 1],
    ["corpus mutations", mutate, SEED + 2],
  ] as const) {
    it(name, async () => {
      const rng = createRng(seed);
      for (let i = 0; i < PER_KIND; i++) await runEach(make(rng));
    }, 60_000);
  }
});
