// The deterministic synthetic bars of service.md 5 (`resin run` without --data): open starts at 100
// and each bar opens at the previous close; close = open + 1, except every third bar, which closes
// 0.5 below its open; high/low = max/min(open, close) +/- 0.8; volume 1000 + i;
// time 1700000000000 + i * 60000.
import type { Bar } from "../core/result.js";

export function syntheticBars(n: number): Bar[] {
  const out: Bar[] = [];
  let open = 100;
  for (let i = 0; i < n; i++) {
    const close = i % 3 === 2 ? open - 0.5 : open + 1;
    out.push({
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.8,
      close,
      volume: 1000 + i,
    });
    open = close;
  }
  return out;
}
