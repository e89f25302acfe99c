// Typed-array stores of finished runs whose caller let go of them (stats.ts releaseStrategyStores:
// an optimize trial's run once its reply is built), for the next runs' brokers: the equity curve's
// values (one a bar) and repeat spans, and the closed trades' columns. A typed array's memory lies outside V8's heap,
// and V8 charges what was allocated there since the last mark-compact to the old generation's limit:
// a 20k-bar trial made ~250 KB of it (the curve's store sized to the bars, the columns grown by
// doubling), a mark-compact every ~100 trials on a thread that did nothing else (issue 18, session 25).

/** Spare stores of one kind, at most `maxCount` of them and `maxBytes` in all. */
export class SpareStores<T extends Float64Array | Int32Array> {
  private readonly spares: T[] = [];
  private bytes = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  /** Spare stores kept now. */
  get count(): number {
    return this.spares.length;
  }

  /** The longest spare store of length in [min, max], or undefined; its values are as its last run left them. */
  take(min: number, max: number): T | undefined {
    const s = this.spares;
    let best = -1;
    for (let i = 0; i < s.length; i++) {
      const n = s[i]!.length;
      if (n >= min && n <= max && (best < 0 || n > s[best]!.length)) best = i;
    }
    if (best < 0) return undefined;
    const a = s[best]!;
    s[best] = s[s.length - 1]!;
    s.pop();
    this.bytes -= a.byteLength;
    return a;
  }

  /** Keeps `a` for a later run (nothing else may read or write it from now on) while there is room. */
  give(a: T): void {
    // (a store whose buffer was transferred away has length 0)
    if (a.length === 0 || this.spares.length >= this.maxCount || this.bytes + a.byteLength > this.maxBytes) return;
    if (this.spares.includes(a)) return;
    this.spares.push(a);
    this.bytes += a.byteLength;
  }
}

/**
 * Equity curve values (equity-curve.ts), by the run's bar count: two, for a thread alternating
 * between two studies' bar counts (a walk-forward study's in- and out-of-sample slices).
 */
export const spareCurveValues = new SpareStores<Float64Array>(2, 16 << 20);

/** The equity curves' repeat spans (equity-curve.ts), the size the last runs grew them to. */
export const spareCurveSpans = new SpareStores<Int32Array>(2, 4 << 20);

/** Closed-trade columns (closed-trades.ts): the last runs' grown stores, so the next run starts at that size. */
export const spareTradeColumns = new SpareStores<Float64Array>(2, 16 << 20);
