// The typed surface of build/kernels.wasm (assembly/index.ts). Handles and pointers are byte offsets
// into the instance memory; booleans cross as 0/1.

type H = number;

export interface KernelExports {
  memory: WebAssembly.Memory;
  heap_top(): number;
  heap_set(top: number): void;
  out_ptr(): number;
  // sums and averages (assembly/avg.ts)
  sum_new(len: number): H;
  sum_next(h: H, bar: number, x: number, len: number): number;
  sma_next(h: H, bar: number, x: number, len: number): number;
  dev_next(h: H, bar: number, x: number, len: number): number;
  stdev2_next(h: H, bar: number, x: number, len: number): number;
  var_new(len: number): H;
  var_next(h: H, bar: number, x: number, len: number, biased: number): number;
  wma_new(len: number): H;
  wma_next(h: H, bar: number, x: number, len: number): number;
  ema_new(len: number, kind: number): H;
  ema_next(h: H, bar: number, x: number): number;
  cum_new(): H;
  cum_next(h: H, bar: number, x: number): number;
  lag_new(len: number): H;
  lag_next(h: H, bar: number, x: number, len: number): number;
  // windows (assembly/window.ts)
  hilo_new(len: number, kind: number): H;
  hilo_next(h: H, bar: number, x: number, len: number): number;
  win_new(len: number): H;
  rise_next(h: H, bar: number, x: number, len: number, dir: number): number;
  prank_next(h: H, bar: number, x: number, len: number): number;
  pivot_next(h: H, bar: number, x: number, left: number, right: number, kind: number): number;
  extreme_new(kind: number): H;
  extreme_next(h: H, bar: number, x: number): number;
  cross_new(): H;
  cross_next(h: H, bar: number, a: number, b: number, kind: number): number;
  // order statistics (assembly/order.ts)
  order_new(len: number, skip: number): H;
  range_next(h: H, bar: number, x: number, len: number): number;
  median_next(h: H, bar: number, x: number, len: number): number;
  mode_next(h: H, bar: number, x: number, len: number): number;
  pnr_next(h: H, bar: number, x: number, len: number, p: number): number;
  pli_next(h: H, bar: number, x: number, len: number, p: number): number;
  rci_next(h: H, bar: number, x: number, len: number): number;
  // misc (assembly/misc.ts, osc.ts)
  alma_next(h: H, bar: number, x: number, len: number, offset: number, sigma: number, floor: number): number;
  swma_next(h: H, bar: number, x: number): number;
  cog_next(h: H, bar: number, x: number, len: number): number;
  linreg_next(h: H, bar: number, x: number, len: number, offset: number): number;
  tr_new(): H;
  tr_next(h: H, bar: number, hi: number, lo: number, cl: number, handleNa: number): number;
  bs_new(): H;
  bs_next(h: H, bar: number, cond: number): number;
  vw_next(h: H, bar: number, cond: number, x: number, occ: number): number;
  sar_new(): H;
  sar_next(h: H, bar: number, hi: number, lo: number, cl: number, start: number, inc: number, max: number): number;
  st_new(period: number): H;
  st_next(h: H, bar: number, hi: number, lo: number, cl: number, factor: number): number;
  series_supertrend(
    hi: number,
    lo: number,
    cl: number,
    st: number,
    dir: number,
    n: number,
    period: number,
    factor: number,
  ): void;
  vwap_new(): H;
  vwap_next(h: H, bar: number, src: number, vol: number, anchor: number, mult: number): number;
  volind_new(kind: number): H;
  volind_next(h: H, bar: number, hi: number, lo: number, cl: number, vol: number): number;
  ppl_new(): H;
  ppl_next(h: H, bar: number, o: number, hi: number, lo: number, cl: number, anchor: number): number;
  rsi_new(len: number): H;
  rsi_next(h: H, bar: number, x: number): number;
  // whole series (assembly/series.ts)
  series_alloc(bytes: number): number;
  series_sma(inp: number, out: number, n: number, len: number): void;
  series_ema(inp: number, out: number, n: number, len: number, kind: number): void;
  series_wma(inp: number, out: number, n: number, len: number): void;
  series_stdev(inp: number, out: number, n: number, len: number, biased: number): void;
  series_hilo(inp: number, out: number, n: number, len: number, kind: number): void;
  series_rsi(inp: number, out: number, n: number, len: number): void;
  series_tr(hi: number, lo: number, cl: number, out: number, n: number, handleNa: number): void;
  series_atr(hi: number, lo: number, cl: number, out: number, n: number, len: number): void;
  series_change(inp: number, out: number, n: number, len: number): void;
  series_bb(inp: number, mid: number, up: number, lo: number, n: number, len: number, mult: number): void;
  series_cross(a: number, b: number, out: number, n: number, kind: number): void;
  series_macd(inp: number, m: number, sg: number, hs: number, n: number, fast: number, slow: number, sig: number): void;
  series_stoch(x: number, hi: number, lo: number, out: number, n: number, len: number): void;
  series_arith(a: number, b: number, out: number, n: number, op: number): void;
  // whole series by stepping the per-bar kernels (assembly/series-step.ts)
  series_pivot(x: number, out: number, n: number, left: number, right: number, kind: number): void;
  series_mom(x: number, out: number, n: number, len: number, kind: number): void;
  series_cci(x: number, out: number, n: number, len: number): void;
  series_cmo(x: number, out: number, n: number, len: number): void;
  series_mfi(x: number, vol: number, out: number, n: number, len: number): void;
  series_vwma(x: number, vol: number, out: number, n: number, len: number): void;
  series_hma(x: number, out: number, n: number, len: number): void;
  series_linreg(x: number, out: number, n: number, len: number, offset: number): void;
  series_dev(x: number, out: number, n: number, len: number): void;
  series_variance(x: number, out: number, n: number, len: number, biased: number): void;
  series_percentrank(x: number, out: number, n: number, len: number): void;
  series_wpr(hi: number, lo: number, cl: number, out: number, n: number, len: number): void;
  series_alma(x: number, out: number, n: number, len: number, offset: number, sigma: number, floor: number): void;
  series_swma(x: number, out: number, n: number): void;
  series_cog(x: number, out: number, n: number, len: number): void;
  series_cum(x: number, out: number, n: number): void;
  series_median(x: number, out: number, n: number, len: number): void;
  series_tsi(x: number, out: number, n: number, shortLen: number, longLen: number): void;
  series_correlation(x: number, y: number, out: number, n: number, len: number): void;
  series_bbw(x: number, out: number, n: number, len: number, mult: number): void;
  series_keltner(
    x: number,
    hi: number,
    lo: number,
    cl: number,
    basis: number,
    up: number,
    lo2: number,
    n: number,
    len: number,
    mult: number,
    useTr: number,
    kind: number,
  ): void;
  series_rise(x: number, out: number, n: number, len: number, dir: number): void;
  series_vwap(x: number, vol: number, anchor: number, out: number, n: number): void;
  series_volind(hi: number, lo: number, cl: number, vol: number, out: number, n: number, kind: number): void;
  series_valuewhen(cond: number, x: number, out: number, n: number, occ: number): void;
  series_barssince(cond: number, out: number, n: number): void;
  series_sar(hi: number, lo: number, cl: number, out: number, n: number, start: number, inc: number, max: number): void;
  series_dmi(
    hi: number,
    lo: number,
    cl: number,
    plus: number,
    minus: number,
    adx: number,
    n: number,
    diLen: number,
    adxLen: number,
  ): void;
}
