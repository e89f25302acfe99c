// The checker's compile eligibility (src/check/eligibility.ts) says exactly what the code generator
// refuses, in the same words: every corpus script and a set of constructed ones either are eligible
// and generate, or are ineligible with the reason compileProgram would give.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "../../src/lang/index.js";
import { check } from "../../src/check/index.js";
import { compileEligibility } from "../../src/check/eligibility.js";
import { registry } from "../../src/builtins/index.js";
import { generatedSource, NotCompilable } from "../../src/compile/index.js";
import type { ResolvedProgram } from "../../src/check/ir.js";

const ROOT = join(import.meta.dirname, "..", "..");
const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;

function program(src: string): ResolvedProgram | null {
  const c = check(parse(src).ast, registry);
  return c.program ?? null;
}

/** What the generator says: undefined when it generates, else compileProgram's reason. */
function generatorVerdict(p: ResolvedProgram): string | undefined {
  try {
    generatedSource(p);
    return undefined;
  } catch (err) {
    if (err instanceof NotCompilable) return `${err.message} is not compile-eligible`;
    throw err;
  }
}

describe("compile eligibility matches the code generator", () => {
  it("on every corpus and bench script", () => {
    const dirs = [join(ROOT, "tests", "corpus"), join(ROOT, "bench")];
    let checked = 0;
    let ineligible = 0;
    for (const dir of dirs) {
      for (const f of readdirSync(dir).filter((x) => x.endsWith(".pine"))) {
        const p = program(readFileSync(join(dir, f), "utf8"));
        if (!p || p.compileReason === "import statements are not compile-eligible") continue;
        checked++;
        const own = compileEligibility(p);
        expect(own, f).toBe(generatorVerdict(p));
        if (own) ineligible++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // since request.security and calc_on_order_fills compile (issue 18 part 5) the corpus holds no
    // construct the generator refuses
    expect(ineligible).toBe(0);
  });
  it("on constructs the old checker refused and the generator handles", () => {
    const scripts = [
      "type P\n    float x = 0\nvar p = P.new()\np.x += 1\nplot(p.x)",
      "enum E\n    a\n    b\ne = bar_index % 2 == 0 ? E.a : E.b\nplot(e == E.a ? 1 : 0)",
      "varip int n = 0\nn += 1\nplot(n)",
      "m = map.new<string, float>()\nm.put('a', close)\nfor [k, v] in m\n    log.info(k)\nplot(m.get('a'))",
      "a = array.from(1.0, 2.0)\nfor x in a\n    log.info(str.tostring(x))\nplot(a.sum())",
      "l = line.new(bar_index, low, bar_index, high)\nplot(close)",
    ];
    for (const body of scripts) {
      const p = program(v6(body))!;
      expect(p, body).not.toBeNull();
      expect(p.compileEligible, body).toBe(true);
      expect(generatorVerdict(p), body).toBeUndefined();
    }
  });
  it("request.security and security_lower_tf are eligible and generate (issue 18 part 5)", () => {
    const p = program(v6("x = request.security(syminfo.tickerid, 'D', close)\nplot(x)"))!;
    expect(p.compileEligible).toBe(true);
    expect(generatorVerdict(p)).toBeUndefined();
    const q = program(v6("f() => request.security_lower_tf(syminfo.tickerid, '1', close)\nplot(array.size(f()))"))!;
    expect(q.compileEligible).toBe(true);
    expect(generatorVerdict(q)).toBeUndefined();
  });
  it("calc_on_order_fills strategies are eligible and generate (issue 18 part 5)", () => {
    const p = program(v6("strategy.entry('L', strategy.long)", "strategy('s', calc_on_order_fills = true)"))!;
    expect(p.compileEligible).toBe(true);
    expect(generatorVerdict(p)).toBeUndefined();
  });
});
