// Example scripts of the picker. The first one is the default script of a fresh session.

export interface Example {
  id: string;
  name: string;
  source: string;
}

const maRibbon = `//@version=6
indicator("Moving averages", overlay = true)

// Inputs show up in the Inputs panel; changing one re-runs the script.
fastLen = input.int(20, "Fast length", minval = 1, maxval = 200)
slowLen = input.int(50, "Slow length", minval = 1, maxval = 400)
src     = input.source(close, "Source")

fast = ta.sma(src, fastLen)
slow = ta.ema(src, slowLen)

plot(fast, "Fast SMA", color = color.blue, linewidth = 2)
plot(slow, "Slow EMA", color = color.orange, linewidth = 2)

// Mark the crosses and tint the background while the fast average is on top.
plotshape(ta.crossover(fast, slow), "Cross up", shape.triangleup, location.belowbar, color.green)
plotshape(ta.crossunder(fast, slow), "Cross down", shape.triangledown, location.abovebar, color.red)
bgcolor(fast > slow ? color.new(color.green, 92) : na, title = "Trend")
`;

const rsi = `//@version=6
indicator("RSI", overlay = false)

len = input.int(14, "Length", minval = 2, maxval = 100)
ob  = input.float(70, "Overbought", minval = 50, maxval = 100)
os  = input.float(30, "Oversold", minval = 0, maxval = 50)

r = ta.rsi(close, len)
plot(r, "RSI", color = color.purple, linewidth = 2)
top = hline(ob, "Overbought", color = color.red)
bottom = hline(os, "Oversold", color = color.green)
fill(top, bottom, color = color.new(color.purple, 90), title = "Band")

// alert() calls are listed under Alerts & logs (they never place orders)
if ta.crossover(r, ob)
    alert("RSI above " + str.tostring(ob) + ": " + str.tostring(r, "#.##"), alert.freq_once_per_bar_close)
`;

const maCross = `//@version=6
strategy("MA cross strategy", overlay = true, initial_capital = 10000, default_qty_type = strategy.percent_of_equity, default_qty_value = 50)

fastLen = input.int(10, "Fast length", minval = 2, maxval = 60)
slowLen = input.int(30, "Slow length", minval = 10, maxval = 200)

fast = ta.sma(close, fastLen)
slow = ta.sma(close, slowLen)
plot(fast, "Fast", color = color.teal)
plot(slow, "Slow", color = color.maroon)

if ta.crossover(fast, slow)
    strategy.entry("Long", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("Short", strategy.short)
`;

const breakout = `//@version=6
strategy("Channel breakout", overlay = true, initial_capital = 10000, default_qty_type = strategy.percent_of_equity, default_qty_value = 50)

len  = input.int(20, "Channel length", minval = 5, maxval = 100)
atrM = input.float(2.0, "ATR stop multiple", minval = 0.5, maxval = 5.0, step = 0.5)

upper = ta.highest(high, len)[1]
lower = ta.lowest(low, len)[1]
atr = ta.atr(14)
p1 = plot(upper, "Upper", color = color.green)
p2 = plot(lower, "Lower", color = color.red)
fill(p1, p2, color = color.new(color.gray, 90), title = "Channel")

if close > upper and strategy.position_size <= 0
    strategy.entry("Break up", strategy.long)
if close < lower and strategy.position_size >= 0
    strategy.entry("Break down", strategy.short)
strategy.exit("Stop L", "Break up", stop = close - atrM * atr)
strategy.exit("Stop S", "Break down", stop = close + atrM * atr)
`;

const drawings = `//@version=6
indicator("Pivots and drawings", overlay = true, max_labels_count = 50)

left = input.int(10, "Pivot strength", minval = 2, maxval = 50)

ph = ta.pivothigh(high, left, left)
pl = ta.pivotlow(low, left, left)
if not na(ph)
    label.new(bar_index - left, ph, str.tostring(ph, format.mintick), style = label.style_label_down, color = color.red, textcolor = color.white)
if not na(pl)
    label.new(bar_index - left, pl, str.tostring(pl, format.mintick), style = label.style_label_up, color = color.green, textcolor = color.white)

// ta.* calls stay at the top level: inside the if they would only see the last bar
lo50 = ta.lowest(low, 50)
hi50 = ta.highest(high, 50)
hi30 = ta.highest(high, 30)
lo30 = ta.lowest(low, 30)
if barstate.islast
    line.new(bar_index - 50, lo50, bar_index, hi50, color = color.blue, width = 2)
    box.new(left = bar_index - 30, top = hi30, right = bar_index, bottom = lo30, border_color = color.orange, bgcolor = color.new(color.orange, 85))
    label.new(bar_index, high, "last " + str.tostring(close), style = label.style_label_down, color = color.blue, textcolor = color.white)
if barstate.islast
    log.info("last close {0}", close)

// a table (screen-anchored) and a polyline through every 10th close of the last 40 bars
var table info = table.new(position.top_right, 2, 2, bgcolor = color.new(color.white, 10), frame_color = color.gray, frame_width = 1, border_color = color.new(color.gray, 60), border_width = 1)
if barstate.islast
    table.cell(info, 0, 0, "Close", text_color = color.gray)
    table.cell(info, 1, 0, str.tostring(close, format.mintick))
    table.cell(info, 0, 1, "50-bar range", text_color = color.gray)
    table.cell(info, 1, 1, str.tostring(hi50 - lo50, format.mintick))
    points = array.new<chart.point>()
    for i = 0 to 4
        points.push(chart.point.from_index(bar_index - 40 + i * 10, close[40 - i * 10]))
    polyline.new(points, line_color = color.purple, line_width = 2)
`;

const heikinAshi = `//@version=6
indicator("Heikin Ashi candles", overlay = false)

// plotcandle draws its own candles (here in a pane of their own), coloured bar by bar.
haClose = (open + high + low + close) / 4
var float haOpen = na
haOpen := na(haOpen[1]) ? (open + close) / 2 : (haOpen[1] + haClose[1]) / 2
haHigh = math.max(high, haOpen, haClose)
haLow  = math.min(low, haOpen, haClose)
up = haClose >= haOpen
plotcandle(haOpen, haHigh, haLow, haClose, "Heikin Ashi", color = up ? color.teal : color.red, wickcolor = color.gray, bordercolor = up ? color.teal : color.red)

// the chart's own candles take the trend colour too
barcolor(up ? color.new(color.teal, 40) : color.new(color.red, 40), title = "Trend")
`;

const macd = `//@version=6
indicator("MACD", overlay = false)

fastLen = input.int(12, "Fast length", minval = 1)
slowLen = input.int(26, "Slow length", minval = 1)
sigLen  = input.int(9, "Signal length", minval = 1)

[macdLine, signal, hist] = ta.macd(close, fastLen, slowLen, sigLen)
// the histogram's colour follows its sign and direction, bar by bar
histColor = hist >= 0 ? (hist > hist[1] ? #26A69A : #B2DFDB) : (hist < hist[1] ? #FF5252 : #FFCDD2)
plot(hist, "Histogram", color = histColor, style = plot.style_columns)
plot(macdLine, "MACD", color = #2962FF)
plot(signal, "Signal", color = #FF6D00)
hline(0, "Zero", color = color.gray)
plotshape(ta.cross(macdLine, signal), "Cross", shape.circle, location.top, macdLine > signal ? color.green : color.red)
`;

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
