// The small SMA-cross strategy the optimize tests study: inputs Fast (2-10) and Slow (8-30).
export const CROSS_STRATEGY = `//@version=6
strategy("Cross")
fast = input.int(3, "Fast", minval=2, maxval=10)
slow = input.int(12, "Slow", minval=8, maxval=30)
f = ta.sma(close, fast)
s = ta.sma(close, slow)
if ta.crossover(f, s)
    strategy.entry("L", strategy.long)
if ta.crossunder(f, s)
    strategy.close("L")
`;
