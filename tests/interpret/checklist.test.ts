// More language.md items through the runtime: literals and escapes, wrapping, comments, matrices in
// for...in, enums as map keys, str.tostring of enums, bar variables, runtime errors of collections.
import { describe, expect, it } from "vitest";
import { bars, runBoth, series, v6 } from "../helpers/run-both.js";
import { LANGUAGE_CHECKLIST } from "../helpers/data.js";

const N = 4;
const data = bars(N);
const first = async (src: string) => Object.values(await series(src, data))[0]!;

describe("literals, comments, layout", () => {
  it("int/float literal forms and colour literals", async () => {
    expect(await first(v6("plot(1. + .5 + 1.5e-3 * 1000)"))).toEqual(Array(N).fill(3));
    const r = await runBoth(v6("bgcolor(#FF000080)\nbgcolor(#00ff00)"), data);
    expect(r.series.plot_0![0]).toBe("#FF000080");
    expect(r.series.plot_1![0]).toBe("#00FF00");
  });
  it("string escapes: \\n \\t \\\\ \\' and an unknown escape keeps the character", async () => {
    expect(await first(v6("s = 'a\\nb\\tc\\\\d\\'e\\T'\nplot(str.length(s))"))).toEqual(Array(N).fill(10)); // a \\n b \\t c \\ d ' e T
  });
  it("comments and //#region markers are ignored; wrapped lines continue", async () => {
    expect(
      await first(v6("//#region calc\nx = 1 +\n  2 // trailing\n//#endregion\ny = math.max(x,\n     10)\nplot(y + x)")),
    ).toEqual(Array(N).fill(13));
  });
  it("typed declarations with na and var float", async () => {
    expect(await first(v6("var float x = na\nif bar_index == 1\n    x := 5\nplot(x)"))).toEqual([null, 5, 5, 5]);
  });
});

describe("collections in loops and enums in maps", () => {
  it("for row in matrix and for [i, row] in matrix", async () => {
    expect(
      await first(
        v6(
          "m = matrix.new<float>(2, 2, 1.0)\nm.set(1, 1, 3)\nt = 0.0\nfor row in m\n    t += row.sum()\nfor [i, row] in m\n    t += i * 100\nplot(t)",
        ),
      ),
    ).toEqual(Array(N).fill(106));
  });
  it("enums as map keys and str.tostring(enum) gives the title", async () => {
    const src = v6(
      "enum Side\n    buy = 'Buy side'\n    sell\nm = map.new<Side, int>()\nm.put(Side.buy, 1)\nm.put(Side.sell, 2)\nplot(m.get(Side.sell) * 100 + str.length(str.tostring(Side.buy)))",
    );
    expect(await first(src)).toEqual(Array(N).fill(208));
  });
  it("an out-of-bounds array index is a runtime error with the bar", async () => {
    const r = await runBoth(v6("a = array.new<float>(2, 0)\nx = bar_index == 2 ? a.get(5) : 0.0\nplot(x)"), data);
    expect(r.error_kind).toBe("runtime");
    expect(r.error_bar).toBe(2);
  });
});

describe("builtin constants", () => {
  it("display flags combine with arithmetic; style constants are assignable", async () => {
    const r = await runBoth(
      v6(
        "s = input.bool(true) ? plot.style_circles : plot.style_line\nplot(close, 'a', style = s, display = display.all - display.status_line)",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.plot_meta.a).toMatchObject({ style: "circles", display: "pane+data_window+price_scale+pine_screener" });
  });
});

describe("bar variables", () => {
  it("last_bar_time, time_close and barstate.islastconfirmedhistory", async () => {
    const r = await runBoth(
      v6(
        "plot(last_bar_time)\nplot(time_close - time)\nplot(barstate.islastconfirmedhistory ? 1 : 0)\nplot(barstate.isconfirmed and barstate.ishistory and barstate.isnew ? 1 : 0)",
      ),
      data,
    );
    expect(r.series.plot_0).toEqual(Array(N).fill(data[N - 1]!.time));
    expect(r.series.plot_1).toEqual(Array(N).fill(60_000));
    expect(r.series.plot_2).toEqual([0, 0, 0, 1]);
    expect(r.series.plot_3).toEqual(Array(N).fill(1));
  });
});

describe("versions", () => {
  it("v4 and older are rejected with a clear error (the front end reports it)", async () => {
    const r = await runBoth("//@version=4\nstudy('x')\nplot(close)\n", data);
    expect(r.error_kind).toBe("parse");
    expect(r.error).toMatch(/4 is not supported/);
  });
  it("a missing required argument points at the call", async () => {
    const r = await runBoth(v6("x = ta.sma()\nplot(close)"), data);
    expect(r.error_kind).toBe("check");
    expect(r.diagnostics![0]!.line).toBe(3);
  });
});

describe("checklist coverage", () => {
  it("every item of language.md has a test named after its number in tests/interpret/checklist-*.test.ts", async () => {
    const { readFileSync, readdirSync } = await import("node:fs");
    const { dirname, join } = await import("node:path");
    const { fileURLToPath } = await import("node:url");
    const here = dirname(fileURLToPath(import.meta.url));
    const spec = readFileSync(LANGUAGE_CHECKLIST, "utf8").split("\n");
    const items: string[] = [];
    let section = 0,
      item = 0;
    for (const line of spec) {
      if (line.startsWith("## ")) {
        section++;
        item = 0;
      } else if (line.startsWith("- [")) items.push(`${section}.${String(++item).padStart(2, "0")}`);
    }
    expect(items.length).toBeGreaterThan(150);
    const named = new Set<string>();
    for (const f of readdirSync(here).filter((n) => /^checklist-.*\.test\.ts$/.test(n))) {
      for (const m of readFileSync(join(here, f), "utf8").matchAll(/\bit\(\s*["'`](\d+\.\d\d) /g)) named.add(m[1]!);
    }
    expect(items.filter((i) => !named.has(i))).toEqual([]);
  });
});
