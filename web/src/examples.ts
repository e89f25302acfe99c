// Example scripts of the picker. The first one is the default script of a fresh session. The scripts
// themselves are the .pine files of examples/ (one source for the app and the CLI examples of the
// README), bundled as text by Vite's `?raw` import.

import maRibbon from "../../examples/moving-averages.pine?raw";
import rsi from "../../examples/rsi.pine?raw";
import drawings from "../../examples/pivots-drawings.pine?raw";
import heikinAshi from "../../examples/heikin-ashi.pine?raw";
import macd from "../../examples/macd.pine?raw";
import maCross from "../../examples/ma-cross-strategy.pine?raw";
import breakout from "../../examples/channel-breakout-strategy.pine?raw";

export interface Example {
  id: string;
  name: string;
  source: string;
}

export const EXAMPLES: readonly Example[] = [
  { id: "ma", name: "Indicator: moving averages", source: maRibbon },
  { id: "rsi", name: "Indicator: RSI (own pane)", source: rsi },
  { id: "drawings", name: "Indicator: pivots, labels, lines", source: drawings },
  { id: "heikin", name: "Indicator: Heikin Ashi candles (plotcandle)", source: heikinAshi },
  { id: "macd", name: "Indicator: MACD, coloured histogram", source: macd },
  { id: "ma-cross", name: "Strategy: MA cross", source: maCross },
  { id: "breakout", name: "Strategy: channel breakout", source: breakout },
];

export const DEFAULT_SCRIPT = maRibbon;
