// TradingView conformance of the ta.* builtins without the interpreter: each case's expressions are
// written here against the builtins directly (same call sites as the case's script.pine).
import { afterAll, describe, expect, it } from "vitest";
import { getZone } from "../../src/core/tz.js";
import { parseSession } from "../../src/core/time-sessions.js";
import { parseTimeframe, timeframeChange } from "../../src/core/time-frames.js";
import { scoreCase, type CaseScore, type Sites } from "./harness.js";

const tv = (s: Sites) => s.ctx;
const hl2 = (s: Sites) => (tv(s).high + tv(s).low) / 2;
const hlc3 = (s: Sites) => (tv(s).high + tv(s).low + tv(s).close) / 3;
const ohlc4 = (s: Sites) => (tv(s).open + tv(s).high + tv(s).low + tv(s).close) / 4;
const hlcc4 = (s: Sites) => (tv(s).high + tv(s).low + 2 * tv(s).close) / 4;

/** timeframe.change(tf) for the harness (the time engineer's helpers). */
function tfChange(s: Sites, tf: string, tz: string, session: string): boolean {
  const c = s.ctx;
  if (c.barIndex === 0) return false;
  return timeframeChange(
    c.columns.time[c.barIndex - 1],
    c.time,
    parseTimeframe(tf)!,
    getZone(tz)!,
    parseSession(session)!,
    0,
  );
}

const FX_SESSION = "1700-1700";

type Case = {
  name: string;
  exprs: (s: Sites) => unknown[];
  opts?: Parameters<typeof scoreCase>[2];
  expectFail?: string;
};

const CASES: Case[] = [
  {
    name: "ma",
    exprs: (s) => {
      const c = tv(s).close;
      return [
        s.f("a", "sma", c, 10),
        s.f("b", "sma", hl2(s), 20),
        s.f("c", "sma", hlc3(s), 15),
        s.f("d", "ema", c, 20),
        s.f("e", "ema", ohlc4(s), 10),
        s.f("f", "rma", hlcc4(s), 5),
        s.f("g", "rma", tv(s).high, 15),
        s.f("h", "alma", c, 5, 0.85, 6),
        s.f("i", "alma", c, 10, 0.55, 12),
        s.f("j", "wma", c, 5),
        s.f("k", "wma", c, 20),
        s.f("l", "hma", c, 9),
        s.f("m", "hma", c, 20),
        s.f("n", "swma", hlc3(s)),
        s.f("o", "vwma", c, 20),
      ];
    },
  },
  {
    name: "bb",
    exprs: (s) => {
      const [b, u, l] = s.f("bb", "bb", tv(s).close, 20, 2);
      return [b, u, l, s.f("w", "bbw", tv(s).close, 20, 2.1)];
    },
  },
  {
    name: "cci+cmo+cog",
    exprs: (s) => [
      s.f("a", "cmo", tv(s).close, 20),
      s.f("b", "cci", tv(s).close, 20),
      s.f("c", "cog", tv(s).close, 21),
    ],
  },
  {
    name: "correlation",
    exprs: (s) => [s.f("c", "correlation", s.f("a", "sma", tv(s).close, 20), s.f("b", "ema", tv(s).close, 10), 20)],
    // The na-gap and tolerance behaviour is pinned by logs/ta_test_244; the clean-data cells are out
    // of reach (see tests/conformance/ta.test.ts: the moment form amplifies ulp-level input noise).
    expectFail: "moment-form correlation amplifies TradingView's unreproducible ulp-level sma/ema inputs to ~1e-7",
  },
  {
    name: "cross",
    exprs: (s) => {
      const e1 = s.f("e1", "ema", tv(s).close, 5);
      const e2 = s.f("e2", "ema", tv(s).close, 11);
      return [
        s.f("x", "cross", e1, e2) ? 0.5 : 0,
        s.f("o", "crossover", e1, e2) ? 1 : 0,
        s.f("u", "crossunder", e1, e2) ? -1 : 0,
      ];
    },
  },
  {
    name: "falling+rising",
    exprs: (s) => {
      const e = s.f("e", "ema", tv(s).close, 20);
      return [s.f("f", "falling", e, 5) ? -1 : 0, s.f("r", "rising", e, 5) ? 1 : 0];
    },
  },
  {
    name: "highest+lowest",
    exprs: (s) => {
      const c = tv(s).close;
      return [
        s.f("a", "highest", 10),
        s.f("b", "highest", c, 10),
        s.f("c", "lowest", 10),
        s.f("d", "lowest", c, 10),
        s.f("e", "highestbars", 10),
        s.f("f", "highestbars", c, 10),
        s.f("g", "lowestbars", 10),
        s.f("h", "lowestbars", c, 10),
      ];
    },
  },
  { name: "iii+nvi+obv", exprs: (s) => [s.v("a", "iii"), s.v("b", "nvi"), s.v("c", "obv")] },
  {
    name: "accdist+pvi+pvt+wad+wvad",
    exprs: (s) => [s.v("a", "accdist"), s.v("b", "pvi"), s.v("c", "pvt"), s.v("d", "wad"), s.v("e", "wvad")],
  },
  {
    name: "kc",
    exprs: (s) => {
      const [b, u, l] = s.f("kc", "kc", tv(s).close, 20, 2);
      return [b, u, l, s.f("w", "kcw", tv(s).close, 20, 2.1, false)];
    },
  },
  { name: "macd", exprs: (s) => [...s.f("m", "macd", tv(s).close, 12, 26, 9)] },
  {
    name: "mfi+rsi+stoch",
    exprs: (s) => [
      s.f("a", "mfi", tv(s).close, 14),
      s.f("b", "rsi", tv(s).close, 14),
      s.f("c", "stoch", tv(s).close, tv(s).high, tv(s).low, 20),
    ],
  },
  {
    name: "min+max+median+mode",
    exprs: (s) => [
      s.f("a", "min", tv(s).close),
      s.f("b", "max", tv(s).close),
      s.f("c", "median", tv(s).close, 20),
      s.f("d", "mode", tv(s).close, 20),
    ],
  },
  {
    name: "ppp",
    exprs: (s) => [
      s.f("a", "percentile_linear_interpolation", tv(s).close, 20, 20),
      s.f("b", "percentile_nearest_rank", tv(s).close, 20, 20),
      s.f("c", "percentrank", tv(s).close, 33),
    ],
  },
  { name: "range", exprs: (s) => [s.f("a", "range", tv(s).close, 20)] },
  { name: "tr", exprs: (s) => [s.f("a", "tr", false), s.f("b", "tr", true), s.v("c", "tr"), s.f("d", "atr", 14)] },
  {
    name: "valuewhen",
    exprs: (s) => {
      const slow = s.f("s", "sma", tv(s).close, 7);
      const fast = s.f("f", "sma", tv(s).close, 14);
      return [s.f("v", "valuewhen", s.f("x", "cross", slow, fast), tv(s).close, 1)];
    },
  },
  {
    name: "valuewhen_na",
    exprs: (s) => {
      const i = tv(s).barIndex;
      const cond = i % 3 === 0;
      const src = i % 2 === 0 ? NaN : tv(s).close;
      return [
        s.f("a", "valuewhen", cond, src, 0),
        s.f("b", "valuewhen", cond, src, 1),
        s.f("c", "valuewhen", cond, src, 2),
        s.f("d", "valuewhen", cond, tv(s).close, 0),
      ];
    },
  },
  {
    name: "vwap",
    opts: { timezone: "US/Eastern", session: FX_SESSION, timeframe: "15" },
    exprs: (s) => {
      const c = tv(s).close;
      const [v, u, l] = s.f("c", "vwap", c, tfChange(s, "360", "US/Eastern", FX_SESSION), 2.0);
      return [s.f("a", "vwap", c), s.f("b", "vwap", c, tfChange(s, "240", "US/Eastern", FX_SESSION)), v, u, l];
    },
  },
  {
    name: "pivot_point_levels",
    opts: { timezone: "US/Eastern", session: FX_SESSION, timeframe: "30", naCode: 1e100 },
    exprs: (s) => {
      const d = tfChange(s, "D", "US/Eastern", FX_SESSION);
      const t = s.f("t", "pivot_point_levels", "Traditional", d, false).values;
      const f = s.f("f", "pivot_point_levels", "Fibonacci", d, false).values;
      const m = s.f("m", "pivot_point_levels", "DM", d, false).values;
      const c = s.f("c", "pivot_point_levels", "Camarilla", d, false).values;
      const w = s.f("w", "pivot_point_levels", "Woodie", d, false).values;
      return [t[0], t[1], t[2], t[3], t[4], t[5], t[6], f[0], f[1], f[2], m[0], m[1], m[2], c[0], c[7], c[8], w[0]];
    },
  },
];

// series_if_for (its Runtime test is owned elsewhere) pins the call-site rules the kernels follow:
// a call site called 3 times on a bar keeps the last call; a skipped call does not update.
{
  const hist1: number[] = [];
  const hist2: number[] = [];
  CASES.push({
    name: "series_if_for",
    exprs: (s) => {
      const i = tv(s).barIndex;
      if (i === 0) {
        hist1.length = 0;
        hist2.length = 0;
      }
      let ema1 = NaN;
      let ema2 = NaN;
      for (let k = 1; k <= 3; k++) ema1 = s.f("loop", "ema", tv(s).close * k, 5);
      if (i % 4 === 3) ema2 = s.f("cond", "ema", tv(s).close, 10);
      hist1.push(ema1);
      hist2.push(ema2);
      return [ema1, i >= 1 ? hist1[i - 1] : NaN, ema2, i >= 2 ? hist2[i - 2] : NaN];
    },
  });
}

const scores: CaseScore[] = [];

describe("ta conformance, direct (builtins without the interpreter)", () => {
  for (const c of CASES) {
    const run = async () => {
      const sc = await scoreCase(c.name, c.exprs, c.opts);
      scores.push(sc);
      const bad = sc.perColumn.filter((p) => p.matched !== p.cells);
      if (bad.length)
        console.log(
          `${c.name}: ${sc.matched}/${sc.cells}\n` +
            bad.map((p) => `  ${p.header}: ${p.matched}/${p.cells} ${p.firstMismatch}`).join("\n"),
        );
      expect(sc.matched).toBe(sc.cells);
    };
    if (c.expectFail) it.fails(`${c.name} (expected failure: ${c.expectFail})`, run);
    else it(c.name, run);
  }
  afterAll(() => {
    const m = scores.reduce((a, s) => a + s.matched, 0);
    const n = scores.reduce((a, s) => a + s.cells, 0);
    console.log(scores.map((s) => `${s.name}: ${s.matched}/${s.cells}`).join("\n") + `\nTOTAL direct: ${m}/${n} cells`);
  });
});
