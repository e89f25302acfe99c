// Parser throughput: the time to parse a generated 1,000-line script (median of several runs).
// Used by `resin bench` and by the lang tests (which check the numbers are sane, never the timing).

import { parse } from "./index.js";

/** A realistic script of about `lines` lines: declarations, wrapped calls, functions, ifs, loops. */
export function generateScript(lines = 1000): string {
  const out = ["//@version=6", 'indicator("bench parse", overlay = true)', ""];
  let i = 0;
  while (out.length < lines) {
    const n = i++;
    out.push(
      `//@function helper ${n}`,
      `f${n}(float src, simple int len = ${(n % 20) + 2}) =>`,
      `    float acc = 0.0`,
      `    for j = 0 to len - 1`,
      `        acc += nz(src[j]) * (len - j)`,
      `    acc / (len * (len + 1) / 2)`,
      `var float s${n} = na`,
      `v${n} = ta.ema(close, ${(n % 30) + 5}) + f${n}(close, ${(n % 10) + 3}) -`,
      `     ta.sma(high - low, 14) * 0.5e-1`,
      `if v${n} > open and not na(v${n}[1])`,
      `    s${n} := v${n} > v${n}[1] ? v${n} : math.max(s${n}, low)`,
      `else`,
      `    s${n} := switch`,
      `        close > open => high`,
      `        => low`,
      `c${n} = color.new(#26a69a, ${n % 90})`,
    );
  }
  out.length = lines;
  return out.join("\n") + "\n";
}

export function benchParse(runs = 21): { lines: number; ms: number } {
  const lines = 1000;
  const src = generateScript(lines);
  for (let w = 0; w < 20; w++) parse(src); // let the JIT settle: the figure is steady-state parsing
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    parse(src);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { lines, ms: times[Math.floor(times.length / 2)]! };
}
