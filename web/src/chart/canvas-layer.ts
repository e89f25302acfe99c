// A series primitive that hands its pane's canvas to a draw callback. bgcolor, fill and drawings are
// painted through it; the callback gets converters from bar index / price to pixels of its pane.

import type {
  IChartApi,
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesApi,
  ISeriesPrimitive,
  PrimitivePaneViewZOrder,
  SeriesAttachedParameter,
  SeriesType,
  Time,
} from "lightweight-charts";

export interface PaneGeometry {
  ctx: CanvasRenderingContext2D;
  width: number;
  height: number;
  /** Pixel x of a bar index (fractional indices allowed), null when the scale is not ready. */
  x(barIndex: number): number | null;
  /** Pixel y of a price on the series' scale, null when out of range or not ready. */
  y(price: number): number | null;
  /** Visible bar index range [from, to] (inclusive, clamped to the data). */
  visible: { from: number; to: number };
  /** Width of one bar in pixels. */
  barSpacing: number;
}

export type LayerPainter = (g: PaneGeometry) => void;

export class CanvasLayer implements ISeriesPrimitive<Time> {
  private chart: IChartApi | null = null;
  private series: ISeriesApi<SeriesType> | null = null;
  private requestUpdate: (() => void) | null = null;
  private readonly views: readonly IPrimitivePaneView[];

  constructor(
    private painter: LayerPainter,
    private readonly z: PrimitivePaneViewZOrder,
    private readonly barCount: () => number,
    /** Bar index of the chart's logical index 0 (the chart holds a window of the bars). */
    private readonly offset: () => number = () => 0,
  ) {
    const renderer: IPrimitivePaneRenderer = {
      draw: (target) => {
        const chart = this.chart;
        const series = this.series;
        if (!chart || !series) return;
        target.useMediaCoordinateSpace(({ context, mediaSize }) => {
          const ts = chart.timeScale();
          const range = ts.getVisibleLogicalRange();
          const n = this.barCount();
          const off = this.offset();
          if (!range || n === 0) return;
          const from = Math.max(off, Math.floor(range.from) + off - 1);
          const to = Math.min(n - 1, Math.ceil(range.to) + off + 1);
          const barSpacing = ts.options().barSpacing;
          this.painter({
            ctx: context,
            width: mediaSize.width,
            height: mediaSize.height,
            x: (i) => ts.logicalToCoordinate((i - off) as never) as number | null,
            y: (p) => series.priceToCoordinate(p) as number | null,
            visible: { from, to },
            barSpacing,
          });
        });
      },
    };
    this.views = [{ zOrder: () => this.z, renderer: () => renderer }];
  }

  attached(p: SeriesAttachedParameter<Time>): void {
    this.chart = p.chart as IChartApi;
    this.series = p.series;
    this.requestUpdate = p.requestUpdate;
  }

  detached(): void {
    this.chart = null;
    this.series = null;
    this.requestUpdate = null;
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return this.views;
  }

  setPainter(painter: LayerPainter): void {
    this.painter = painter;
    this.requestUpdate?.();
  }
}
