// Hand-written floors: what a programmer would write by hand, in plain JavaScript, to compute what a
// bench script computes; one loop over the bars, state in locals, outputs allocated once. `resin
// bench` times each floor next to resin running its script on the same bars, and the ratio says how
// far resin is from hand-written code. tests/bench/floors.test.ts checks that each floor computes
// exactly what resin computes (every plot value with Object.is, every trade), in both modes: a floor
// that computed something cheaper would make the ratio meaningless.
//
// To agree bit for bit the floors take resin's documented arithmetic (assembly/avg.ts, osc.ts,
// series.ts; src/strategy): running window sums that take the leaving value out before adding the
// new one, ema/rma seeded with a compensated mean of the first `length` values, the two-pass
// Bollinger width, stop levels on the tick grid. Those choices are TradingView's (see those files).
//
// Inputs: columns { time, open, high, low, close, volume } of equal length (Float64Array or number[]).
//
// The strategy floors return the trade list as resin reports it, every cell of every row (Trade in
// src/core/result.ts): ids, bars, times, prices, qty, profit and its percent, the cumulative profit,
// and each trade's run-up and drawdown, which take the highest and lowest price the trade saw on
// every bar it was open (in path order on the bar it closed). With qty 1, point value 1 and no
// commission the expressions are resin's (src/strategy/ledger.ts closePart and openRow) with those
// factors written in, so the doubles are the same.

/** Neumaier's compensated running sum of a seed: [sum, compensation] in a 2-slot array. */
function seedAdd(acc, x) {
  const s = acc[0];
  const t = s + x;
  acc[1] += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
  acc[0] = t;
}

/**
 * A strategy floor's trade row, as resin reports it (qty 1, point value 1, no commission): `hi` and
 * `lo` are the highest and lowest prices the trade saw (a long's best and worst, a short's worst and
 * best); `cum` the net profit of the closed trades with this one's. Plain functions over an array, not
 * a class: a forced GC drops the feedback on a class's short-lived instances, and the floor's loop,
 * optimised while it runs, was deoptimised at the row calls after it on every run (`resin bench`
 * forces a GC before each timed run).
 */
function tradeRow(num, time, side, entryBar, entryPrice, exitId, exitBar, exitPrice, profit, cum, hi, lo) {
  const runUp = Math.max(0, ((side > 0 ? hi : lo) - entryPrice) * side);
  const drawdown = Math.min(0, ((side > 0 ? lo : hi) - entryPrice) * side);
  return {
    trade_num: num,
    entry_id: side > 0 ? "L" : "S",
    entry_bar_index: entryBar,
    entry_time: time[entryBar],
    entry_price: entryPrice,
    entry_comment: null,
    exit_id: exitId,
    exit_bar_index: exitBar,
    exit_time: exitBar === null ? null : time[exitBar],
    exit_price: exitPrice,
    exit_comment: null,
    direction: side > 0 ? "long" : "short",
    qty: 1,
    profit,
    profit_percent: entryPrice !== 0 ? (profit / entryPrice) * 100 : 0,
    cum_profit: cum,
    run_up: runUp,
    run_up_percent: entryPrice !== 0 ? (runUp / entryPrice) * 100 : 0,
    drawdown,
    drawdown_percent: entryPrice !== 0 ? (drawdown / entryPrice) * 100 : 0,
    commission: 0,
  };
}

/**
 * Books a trade closed on `exitBar` at `exitPrice` by order `exitId` into `rows` (`hi` and `lo`: the
 * prices it saw before its fill, which it sees too); returns the net profit with it.
 */
function closeTrade(rows, time, netProfit, side, entryBar, entryPrice, exitId, exitBar, exitPrice, hi, lo) {
  const profit = (exitPrice - entryPrice) * side;
  const cum = netProfit + profit;
  const h = Math.max(hi, exitPrice),
    l = Math.min(lo, exitPrice);
  rows.push(tradeRow(rows.length + 1, time, side, entryBar, entryPrice, exitId, exitBar, exitPrice, profit, cum, h, l));
  return cum;
}

/** Books the trade still open after the last bar, valued at that bar's close `price`. */
function openTrade(rows, time, netProfit, side, entryBar, entryPrice, price, hi, lo) {
  const profit = (price - entryPrice) * side;
  rows.push(
    tradeRow(rows.length + 1, time, side, entryBar, entryPrice, null, null, null, profit, netProfit + profit, hi, lo),
  );
}

/** A window sum within this of zero reads as 0 (avg.ts ZERO_SUM). */
const ZERO_SUM = 1e-10;

/**
 * bench10.pine: sma 20, ema 50, rsi 14, macd(12, 26, 9) line, Bollinger upper (20, 2), atr 14,
 * stoch 14, highest(high, 20) - lowest(low, 20), crossover(sma, ema) as 1/0. Returns the nine plot
 * columns in plot order.
 */
export function bench10Floor(d) {
  const { high, low, close } = d;
  const n = close.length;
  const out = [];
  for (let k = 0; k < 9; k++) out.push(new Float64Array(n));
  const [oSma, oEma, oRsi, oMacd, oUp, oAtr, oStoch, oRange, oCross] = out;
  // sma 20 (also the Bollinger basis)
  let sum20 = 0;
  // ema 50, ema 12, ema 26, signal 9: seeds, then values
  const seed50 = [0, 0],
    seed12 = [0, 0],
    seed26 = [0, 0],
    seed9 = [0, 0],
    seedUp = [0, 0],
    seedDn = [0, 0],
    seedTr = [0, 0];
  let ema50 = NaN,
    ema12 = NaN,
    ema26 = NaN,
    sig = NaN,
    macdCount = 0;
  const a50 = 2 / 51,
    a12 = 2 / 13,
    a26 = 2 / 27,
    a9 = 2 / 10;
  // rsi 14: rma of up and down moves
  let rup = NaN,
    rdn = NaN,
    moves = 0;
  // atr 14: rma of the true range
  let atr = NaN;
  // crossover(sma, ema): the previous pair with both defined
  let pf = NaN,
    ps = NaN;
  for (let i = 0; i < n; i++) {
    const x = close[i];
    // sma 20: subtract the leaving value, then add the new one
    if (i >= 20) sum20 = sum20 - close[i - 20];
    sum20 = sum20 + x;
    const sma = i >= 19 ? (Math.abs(sum20) <= ZERO_SUM ? 0 : sum20) / 20 : NaN;
    // ema 50
    if (i < 50) {
      seedAdd(seed50, x);
      if (i === 49) ema50 = (seed50[0] + seed50[1]) / 50;
    } else ema50 = ema50 + a50 * (x - ema50);
    // macd 12/26/9
    if (i < 12) {
      seedAdd(seed12, x);
      if (i === 11) ema12 = (seed12[0] + seed12[1]) / 12;
    } else ema12 = ema12 + a12 * (x - ema12);
    if (i < 26) {
      seedAdd(seed26, x);
      if (i === 25) ema26 = (seed26[0] + seed26[1]) / 26;
    } else ema26 = ema26 + a26 * (x - ema26);
    const macd = ema12 - ema26;
    if (macd === macd) {
      if (macdCount < 9) {
        seedAdd(seed9, macd);
        if (++macdCount === 9) sig = (seed9[0] + seed9[1]) / 9;
      } else sig = sig + a9 * (macd - sig);
    }
    // rsi 14 over the moves from bar 1 on
    let rsi = NaN;
    if (i > 0) {
      const p = close[i - 1];
      const u = Math.max(x - p, 0);
      const dn = Math.max(p - x, 0);
      if (moves < 14) {
        seedAdd(seedUp, u);
        seedAdd(seedDn, dn);
        if (++moves === 14) {
          rup = (seedUp[0] + seedUp[1]) / 14;
          rdn = (seedDn[0] + seedDn[1]) / 14;
        }
      } else {
        rup = (13 * rup + u) / 14;
        rdn = (13 * rdn + dn) / 14;
      }
      if (rup === rup && rdn === rdn) rsi = rdn === 0 ? 100 : rup === 0 ? 0 : 100 - 100 / (1 + rup / rdn);
    }
    // Bollinger upper: basis + 2 * population stdev around it, newest first, tiny deviations as 0
    let up = NaN;
    if (i >= 19) {
      let q = 0;
      for (let k = i; k > i - 20; k--) {
        let dv = close[k] + -sma;
        if (Math.abs(dv) <= 1e-10) dv = 0;
        q += dv * dv;
      }
      up = sma + 2 * Math.sqrt(q / 20);
    }
    // atr 14: true range (high - low on bar 0), rma seeded with the compensated mean
    const h = high[i],
      l = low[i];
    const tr = i === 0 ? h - l : Math.max(Math.max(h - l, Math.abs(h - close[i - 1])), Math.abs(l - close[i - 1]));
    if (i < 14) {
      seedAdd(seedTr, tr);
      if (i === 13) atr = (seedTr[0] + seedTr[1]) / 14;
    } else atr = (13 * atr + tr) / 14;
    // stoch 14 and the 20-bar range: extremes of the window
    let stoch = NaN;
    if (i >= 13) {
      let hh = -Infinity,
        ll = Infinity;
      for (let k = i - 13; k <= i; k++) {
        if (high[k] > hh) hh = high[k];
        if (low[k] < ll) ll = low[k];
      }
      stoch = (100 * (x - ll)) / (hh - ll);
    }
    let range = NaN;
    if (i >= 19) {
      let hh = -Infinity,
        ll = Infinity;
      for (let k = i - 19; k <= i; k++) {
        if (high[k] > hh) hh = high[k];
        if (low[k] < ll) ll = low[k];
      }
      range = hh - ll;
    }
    // crossover(sma, ema50): only bars with both defined move the previous pair
    let cross = 0;
    if (sma === sma && ema50 === ema50) {
      cross = sma > ema50 && pf <= ps ? 1 : 0;
      pf = sma;
      ps = ema50;
    }
    oSma[i] = sma;
    oEma[i] = ema50;
    oRsi[i] = rsi;
    oMacd[i] = macd;
    oUp[i] = up;
    oAtr[i] = atr;
    oStoch[i] = stoch;
    oRange[i] = range;
    oCross[i] = cross;
  }
  return out;
}

/**
 * swing_state.pine: a 20-value window of bar moves (close - open) kept with push/shift and averaged,
 * the trend side and the price at the last crossing of close over/under ema(close, 30), and the bars
 * since that crossing. Returns the four plot columns in plot order.
 */
export function swingStateFloor(d, len = 20, emaLen = 30) {
  const { open, close } = d;
  const n = close.length;
  const avgMove = new Float64Array(n),
    trendOut = new Float64Array(n),
    fromCross = new Float64Array(n),
    streakOut = new Float64Array(n);
  // the array window as a ring: `count` values, the oldest at `head`
  const ring = new Float64Array(len + 1);
  let head = 0,
    count = 0;
  const seed = [0, 0];
  let ema = NaN;
  const alpha = 2 / (emaLen + 1);
  let pc = NaN,
    pe = NaN;
  let trend = 0,
    crossPrice = NaN,
    streak = 0;
  for (let i = 0; i < n; i++) {
    const x = close[i];
    // array.push, then array.shift while longer than len
    ring[(head + count) % ring.length] = x - open[i];
    count++;
    if (count > len) {
      head = (head + 1) % ring.length;
      count--;
    }
    // array.avg: the values summed oldest first
    let s = 0;
    for (let k = 0; k < count; k++) s += ring[(head + k) % ring.length];
    // ema 30
    if (i < emaLen) {
      seedAdd(seed, x);
      if (i === emaLen - 1) ema = (seed[0] + seed[1]) / emaLen;
    } else ema = ema + alpha * (x - ema);
    // crossover / crossunder of close and the ema, from the last bar with both defined
    let up = false,
      dn = false;
    if (ema === ema) {
      up = x > ema && pc <= pe;
      dn = x < ema && pc >= pe;
      pc = x;
      pe = ema;
    }
    if (up) {
      trend = 1;
      crossPrice = x;
      streak = 0;
    } else if (dn) {
      trend = -1;
      crossPrice = x;
      streak = 0;
    } else streak += 1;
    avgMove[i] = s / count;
    trendOut[i] = trend;
    fromCross[i] = x - crossPrice;
    streakOut[i] = streak;
  }
  return [avgMove, trendOut, fromCross, streakOut];
}

/**
 * ema_atr_stop.pine with qty 1 and the tick `mintick`: long on crossover(ema 12, ema 26) (a market
 * order filling at the next open), flat on crossunder (likewise), and a sell stop at close - 2 * atr 14
 * re-placed every bar (rounded down to the tick; filling at the open when the bar opens through it,
 * else at the stop when the low reaches it: after the high when the open is nearer the high, raw
 * floats, a tie going low first). Returns the closed and open trades' rows (tradeRow).
 */
export function emaAtrStopFloor(d, mintick = 0.01, fastLen = 12, slowLen = 26, atrLen = 14, mult = 2) {
  const { time, open, high, low, close } = d;
  const n = close.length;
  const ticksPerUnit = Math.round(1 / mintick);
  const trades = [];
  let netProfit = 0;
  const seedF = [0, 0],
    seedS = [0, 0],
    seedTr = [0, 0];
  let fast = NaN,
    slow = NaN,
    atr = NaN;
  const af = 2 / (fastLen + 1),
    as = 2 / (slowLen + 1);
  let pf = NaN,
    ps = NaN;
  // orders placed on the previous bar: a pending entry / close, and the stop level (NaN: none)
  let enter = false,
    exit = false,
    stop = NaN;
  // the open trade, and the highest and lowest prices it saw
  let inTrade = false,
    entryBar = -1,
    entryPrice = NaN,
    hiSeen = NaN,
    loSeen = NaN;
  for (let i = 0; i < n; i++) {
    // the broker at this bar's open: market orders first, then the stop, at the open or on the path
    const o = open[i];
    if (exit && inTrade) {
      const id = "Close entry(s) order L";
      netProfit = closeTrade(trades, time, netProfit, 1, entryBar, entryPrice, id, i, o, hiSeen, loSeen);
      inTrade = false;
    }
    if (enter && !inTrade) {
      inTrade = true;
      entryBar = i;
      entryPrice = o;
      hiSeen = o;
      loSeen = o;
    }
    if (inTrade) {
      const h = high[i],
        l = low[i];
      if (stop === stop && o <= stop) {
        netProfit = closeTrade(trades, time, netProfit, 1, entryBar, entryPrice, "XL", i, o, hiSeen, loSeen);
        inTrade = false;
      } else if (stop === stop && l <= stop) {
        // the trade saw the high first when the path went there first, then the stop
        if (h - o < o - l) hiSeen = Math.max(hiSeen, h);
        netProfit = closeTrade(trades, time, netProfit, 1, entryBar, entryPrice, "XL", i, stop, hiSeen, loSeen);
        inTrade = false;
      } else {
        // the whole bar after the open (which the high and low bracket)
        hiSeen = Math.max(hiSeen, h, l, close[i]);
        loSeen = Math.min(loSeen, h, l, close[i]);
      }
    }
    // the script at this bar's close
    const x = close[i];
    if (i < fastLen) {
      seedAdd(seedF, x);
      if (i === fastLen - 1) fast = (seedF[0] + seedF[1]) / fastLen;
    } else fast = fast + af * (x - fast);
    if (i < slowLen) {
      seedAdd(seedS, x);
      if (i === slowLen - 1) slow = (seedS[0] + seedS[1]) / slowLen;
    } else slow = slow + as * (x - slow);
    const h = high[i],
      l = low[i];
    const tr = i === 0 ? h - l : Math.max(Math.max(h - l, Math.abs(h - close[i - 1])), Math.abs(l - close[i - 1]));
    if (i < atrLen) {
      seedAdd(seedTr, tr);
      if (i === atrLen - 1) atr = (seedTr[0] + seedTr[1]) / atrLen;
    } else atr = ((atrLen - 1) * atr + tr) / atrLen;
    let over = false,
      under = false;
    if (fast === fast && slow === slow) {
      over = fast > slow && pf <= ps;
      under = fast < slow && pf >= ps;
      pf = fast;
      ps = slow;
    }
    // an entry while already long is not allowed (pyramiding 1), so it is not placed
    enter = over && !inTrade;
    exit = under;
    // sell stop on the tick grid, rounded down (against the trader); na while the atr is na
    const raw = x - mult * atr;
    stop = raw === raw ? Math.floor(raw / mintick + 1e-7) / ticksPerUnit : NaN;
  }
  if (inTrade) openTrade(trades, time, netProfit, 1, entryBar, entryPrice, close[n - 1], hiSeen, loSeen);
  return trades;
}

/**
 * ema_cross_bracket.pine with qty 1 and the tick `mintick`: long on crossover(ema 12, ema 26), short
 * on crossunder (market orders filling at the next open; one against the open trade closes it and
 * opens the other side at the same price), and for each side an exit re-placed every bar with a stop
 * 1.5 atr 14 and a take-profit 2 atr 14 from the close of the bar that signalled the side's last
 * entry. Levels sit on the tick grid rounded against the trader (a long's stop down and take-profit
 * up, a short's the other way). At a bar's open: the market order, then a level the open is already
 * through fills at the open; then the path, open -> high -> low -> close when the open is nearer the
 * high (raw floats, a tie goes low first), else open -> low -> high -> close, fills the first level
 * a segment reaches, at the level. Returns the closed and open trades with their direction and the
 * id of the order that closed them.
 */
export function emaCrossBracketFloor(
  d,
  mintick = 0.01,
  fastLen = 12,
  slowLen = 26,
  atrLen = 14,
  stopMult = 1.5,
  takeMult = 2,
) {
  const { time, open, high, low, close } = d;
  const n = close.length;
  const ticksPerUnit = Math.round(1 / mintick);
  const down = (p) => Math.floor(p / mintick + 1e-7) / ticksPerUnit;
  const up = (p) => Math.ceil(p / mintick - 1e-7) / ticksPerUnit;
  const trades = [];
  let netProfit = 0;
  const seedF = [0, 0],
    seedS = [0, 0],
    seedTr = [0, 0];
  let fast = NaN,
    slow = NaN,
    atr = NaN;
  const af = 2 / (fastLen + 1),
    as = 2 / (slowLen + 1);
  let pf = NaN,
    ps = NaN;
  // the close of the bar that signalled each side's last entry (Pine `var`s, na until then)
  let longRef = NaN,
    shortRef = NaN;
  // orders placed on the previous bar: the entry's side (0: none) and each side's exit levels (NaN: none)
  let pending = 0;
  let longStop = NaN,
    longTake = NaN,
    shortStop = NaN,
    shortTake = NaN;
  // the open trade (side 0 when flat), and the highest and lowest prices it saw
  let side = 0,
    entryBar = -1,
    entryPrice = NaN,
    hiSeen = NaN,
    loSeen = NaN;
  for (let i = 0; i < n; i++) {
    const o = open[i];
    // the market entry at the open: it closes a trade the other way first, at the same price
    if (pending !== 0) {
      if (side === -pending) {
        const id = pending > 0 ? "L" : "S";
        netProfit = closeTrade(trades, time, netProfit, side, entryBar, entryPrice, id, i, o, hiSeen, loSeen);
        side = 0;
      }
      if (side === 0) {
        side = pending;
        entryBar = i;
        entryPrice = o;
        hiSeen = o;
        loSeen = o;
      }
    }
    if (side !== 0) {
      // the open trade's bracket: a take-profit reached when the price moves its way, a stop the other
      const long = side > 0;
      const take = long ? longTake : shortTake;
      const stop = long ? longStop : shortStop;
      const exitId = long ? "XL" : "XS";
      const h = high[i],
        l = low[i];
      // the level above (reached rising) and below (reached falling) the open
      const above = long ? take : stop;
      const below = long ? stop : take;
      let exitPrice = NaN;
      if (o >= above || o <= below) exitPrice = o;
      else if (h - o < o - l) {
        // open -> high -> low (-> close: back up from the low, but the high was reached already)
        if (above <= h) exitPrice = above;
        else {
          hiSeen = Math.max(hiSeen, h);
          if (below >= l) exitPrice = below;
        }
      } else if (below >= l) exitPrice = below;
      else {
        loSeen = Math.min(loSeen, l);
        if (above <= h) exitPrice = above;
      }
      if (exitPrice === exitPrice) {
        netProfit = closeTrade(
          trades,
          time,
          netProfit,
          side,
          entryBar,
          entryPrice,
          exitId,
          i,
          exitPrice,
          hiSeen,
          loSeen,
        );
        side = 0;
      } else {
        // nothing filled: the trade saw the whole bar after the open (which the high and low bracket)
        hiSeen = Math.max(hiSeen, h, l, close[i]);
        loSeen = Math.min(loSeen, h, l, close[i]);
      }
    }
    // the script at this bar's close
    const x = close[i];
    if (i < fastLen) {
      seedAdd(seedF, x);
      if (i === fastLen - 1) fast = (seedF[0] + seedF[1]) / fastLen;
    } else fast = fast + af * (x - fast);
    if (i < slowLen) {
      seedAdd(seedS, x);
      if (i === slowLen - 1) slow = (seedS[0] + seedS[1]) / slowLen;
    } else slow = slow + as * (x - slow);
    const h = high[i],
      l = low[i];
    const tr = i === 0 ? h - l : Math.max(Math.max(h - l, Math.abs(h - close[i - 1])), Math.abs(l - close[i - 1]));
    if (i < atrLen) {
      seedAdd(seedTr, tr);
      if (i === atrLen - 1) atr = (seedTr[0] + seedTr[1]) / atrLen;
    } else atr = ((atrLen - 1) * atr + tr) / atrLen;
    let over = false,
      under = false;
    if (fast === fast && slow === slow) {
      over = fast > slow && pf <= ps;
      under = fast < slow && pf >= ps;
      pf = fast;
      ps = slow;
    }
    // an entry on the side already held is not placed (pyramiding 1); the reference moves anyway
    pending = 0;
    if (over) {
      longRef = x;
      if (side <= 0) pending = 1;
    }
    if (under) {
      shortRef = x;
      if (side >= 0) pending = -1;
    }
    // an exit with both levels na is not placed and leaves the pending one as it was
    const ls = longRef - stopMult * atr,
      lt = longRef + takeMult * atr;
    if (ls === ls || lt === lt) {
      longStop = down(ls);
      longTake = up(lt);
    }
    const ss = shortRef + stopMult * atr,
      st = shortRef - takeMult * atr;
    if (ss === ss || st === st) {
      shortStop = up(ss);
      shortTake = down(st);
    }
  }
  if (side !== 0) openTrade(trades, time, netProfit, side, entryBar, entryPrice, close[n - 1], hiSeen, loSeen);
  return trades;
}

/**
 * loops.pine: wavg(close, 20) (a weighted window, newest weight 20, as a loop over the history), the
 * 20-bar high-low range as a loop from the current close, the count of up bars among the last 10, and
 * an exponential accumulator of close - close[1] (na from bar 0 on, as in Pine: close[1] is na there).
 * Returns the four plot columns in plot order.
 */
export function loopsFloor(d, len = 20) {
  const { open, high, low, close } = d;
  const n = close.length;
  const oWavg = new Float64Array(n),
    oRange = new Float64Array(n),
    oUps = new Float64Array(n),
    oAcc = new Float64Array(n);
  let den = 0;
  for (let i = 0; i < len; i++) den += len - i;
  let acc = 0;
  for (let b = 0; b < n; b++) {
    // wavg: terms summed newest first; a history value before bar 0 is na and makes the sum na
    let wavg = NaN;
    if (b >= len - 1) {
      let num = 0;
      for (let i = 0; i < len; i++) num += close[b - i] * (len - i);
      wavg = num / den;
    }
    // the range: math.max/min from the current close over high/low of the 19 bars before, na if any is
    let range = NaN;
    if (b >= len - 1) {
      let mx = close[b],
        mn = mx;
      for (let i = 1; i < len; i++) {
        const h = high[b - i],
          l = low[b - i];
        if (h > mx) mx = h;
        if (l < mn) mn = l;
      }
      range = mx - mn;
    }
    // up bars among the last 10 (a bar before bar 0 compares na: not up)
    let ups = 0;
    const back = Math.min(b, 9);
    for (let i = 0; i <= back; i++) if (close[b - i] > open[b - i]) ups++;
    acc = 0.9 * acc + 0.1 * (close[b] - (b > 0 ? close[b - 1] : NaN));
    oWavg[b] = wavg;
    oRange[b] = range;
    oUps[b] = ups;
    oAcc[b] = acc;
  }
  return [oWavg, oRange, oUps, oAcc];
}

/** Each floor with the bench script it stands for (bench/<script>.pine). */
export const FLOORS = [
  { script: "bench10", kind: "plots", run: (d) => bench10Floor(d) },
  { script: "ema_atr_stop", kind: "trades", run: (d) => emaAtrStopFloor(d) },
  { script: "ema_cross_bracket", kind: "trades", run: (d) => emaCrossBracketFloor(d) },
  { script: "swing_state", kind: "plots", run: (d) => swingStateFloor(d) },
  { script: "loops", kind: "plots", run: (d) => loopsFloor(d) },
];
