// math.avg summation, matched to TradingView's last ulp (logs/math_test_005): two arguments are
// added plainly; three or more use Kahan summation with the final correction applied (sum - c).

export function mathAvg(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  if (n <= 2) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[i]!;
    return s / n;
  }
  let s = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const y = xs[i]! - c;
    const t = s + y;
    c = t - s - y;
    s = t;
  }
  return (s - c) / n;
}
