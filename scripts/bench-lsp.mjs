#!/usr/bin/env node
// Language-server latency on a generated 5,000-line script (docs/benchmarks.md "Language server"):
// full diagnostics (parse + check of a new text), then the symbol index the first request after a change
// builds, then completion, hover and signature help on the analysed text (what an editor asks between
// keystrokes). Prints the median and range of
// repeated runs. Indicative: run it on an idle machine for published figures. Needs dist/ (npm run build:lib).
// Usage: node scripts/bench-lsp.mjs [lines=5000] [runs=7]
import { LanguageService } from "../dist/lsp/service.js";

const LINES = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 7);

function script(lines) {
  const out = ["//@version=6", 'indicator("bench lsp", overlay = true)', 'len = input.int(14, "Length")'];
  out.push("f(x, n) =>", "    y = ta.ema(x, n)", "    y * 2");
  let i = 0;
  while (out.length < lines - 2) {
    out.push(`// block ${i}`);
    out.push(`a${i} = ta.sma(close, len) + f(high, ${(i % 20) + 2})`);
    out.push(`b${i} = a${i} > open ? math.max(a${i}, low) : math.min(a${i}, high)`);
    out.push(`if b${i} > close`);
    out.push(`    c${i} = b${i} - a${i}`);
    i++;
  }
  out.push("plot(a0)", "");
  return out.join("\n");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
// CPU time of the process (all its threads, GC helpers included): on a shared, loaded machine wall time
// mostly measures waiting for a core, CPU time what the work costs
const cpuTime = (fn) => {
  const c = process.cpuUsage();
  fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

const text = script(LINES);
const lines = text.split("\n").length;
const svc = new LanguageService();
const diag = [];
const diagCpu = [];
const idx = [];
const comp = [];
const scope = [];
const hov = [];
const sig = [];
for (let r = 0; r < RUNS; r++) {
  const uri = `file:///bench-${r}.pine`;
  // a distinct text each run, so each diagnostics figure is a fresh analysis
  svc.open(uri, `${text}// run ${r}\n`, 1);
  let n = 0;
  let cpu = 0;
  diag.push(time(() => (cpu = cpuTime(() => (n = svc.diagnostics(uri).length)))));
  diagCpu.push(cpu);
  if (n) throw new Error(`the benchmark script has ${n} diagnostics`);
  const last = lines - 3;
  // the first request after a change builds the symbol index (diagnostics do not need it)
  idx.push(time(() => svc.hover(uri, { line: 7, character: 10 })));
  // `a0 = ta.|` (namespace members) and `a0 = ta.sma(c|` (named arguments, every visible name, builtins)
  comp.push(time(() => svc.completion(uri, { line: 7, character: 8 })));
  scope.push(time(() => svc.completion(uri, { line: 7, character: 13 })));
  hov.push(time(() => svc.hover(uri, { line: 7, character: 10 })));
  sig.push(time(() => svc.signatureHelp(uri, { line: last, character: 5 })));
  svc.close(uri);
}
const fmt = (xs) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
console.log(`lsp bench: ${lines} lines, ${RUNS} runs (median, range)`);
console.log(`  full diagnostics (parse + check):          ${fmt(diag)}  target <= 300 ms`);
console.log(`    its CPU time:                            ${fmt(diagCpu)}`);
console.log(`    the first call (cold JIT), wall / CPU:   ${diag[0].toFixed(1)} / ${diagCpu[0].toFixed(1)} ms`);
console.log(`  first request after a change (hover, builds the symbol index): ${fmt(idx)}`);
console.log(`  completion after "ta.":                    ${fmt(comp)}  target <= 50 ms`);
console.log(`  completion in a call (names in scope):     ${fmt(scope)}  target <= 50 ms`);
console.log(`  hover:                                      ${fmt(hov)}`);
console.log(`  signature help:                             ${fmt(sig)}`);
