// The scheduled close time of every chart bar, computed once per run: time_close, the broker's
// magnifier window, request.* and session.* all read ctx.timeClose, so they agree with TradingView's
// time_close (open + timeframe cut at the session's end intraday; the session close for daily and
// longer bars), not with the next bar's open.
import { barTimeClose, isIntraday, nominalMs, parseTimeframe, toUtc } from "../core/time-frames.js";
import { parseSession, SESSION_24X7, type Session } from "../core/time-sessions.js";
import { primeFeedback } from "../core/feedback.js";
import { getZone, UTC, type Zone } from "../core/tz.js";
import { sameValues } from "../core/same-values.js";
import { isSettledTime } from "../core/bars.js";

/**
 * Close times (UTC ms) of bars opening at `times` on a `timeframe` chart. A tick bar closes at the next
 * bar's open; a bar of an unreadable timeframe at the next bar's open or one nominal bar later, if
 * sooner; the last of either one nominal bar (one second for ticks) after its open.
 * The zone and session are validated by the Runtime first; unreadable ones fall back to UTC / 24x7.
 */
export function barCloseTimes(
  times: Float64Array,
  timeframe: string,
  timezone: string | undefined,
  session: string | undefined,
): Float64Array {
  const n = times.length;
  const out = new Float64Array(n);
  const tf = parseTimeframe(timeframe);
  const zone = getZone(timezone ?? "UTC") ?? UTC;
  const ses = (session !== undefined ? parseSession(session) : null) ?? SESSION_24X7;
  const barMs = tf ? nominalMs(tf) : 60_000;
  const scheduled = tf !== null && tf.unit !== "T";
  const ticks = tf !== null && tf.unit === "T";
  if (scheduled && isIntraday(tf) && ses.disjoint) {
    if (zone.fixed && ses.is24x7) intradayAroundTheClock(times, barMs, zone.offsetMs(0), out);
    else intradayDisjointRanges(times, barMs, zone, ses, out);
    return out;
  }
  for (let i = 0; i < n; i++) {
    const t = times[i]!;
    const tc = scheduled ? barTimeClose(t, tf, zone, ses) : NaN;
    // a tick bar lasts until the next trade, however long that is (no nominal length caps it)
    out[i] = tc === tc ? tc : i + 1 < n ? (ticks ? times[i + 1]! : Math.min(times[i + 1]!, t + barMs)) : t + barMs;
  }
  return out;
}

/**
 * barCloseTimes, reused for the same bars: a host that runs scripts again and again over one input
 * (benchmarks, a chart re-run after an input change) passes the same Float64Array time column, which
 * the Runtime uses as it is, so an earlier run's close times still hold when that column and the
 * timeframe, zone and session are the same. Only for the caller's own column: one the Runtime built
 * for this run (rows, converted or shared columns) is new every run, so barCloseTimes serves it with
 * no copy. The caller may have written into its column since, so the times are compared value by
 * value (Object.is: -0 and NaN as they are) with a copy taken when the close times were made: one
 * compare a bar instead of the pass and a new 8-byte-a-bar column (~0.15 against ~0.5 ms at 100k
 * bars). The column handed out is shared by those runs, which only read it. One entry a time column
 * (its last timeframe, zone and session), held weakly: the copy and the close times (16 bytes a bar)
 * go with the caller's column.
 */
export function cachedBarCloseTimes(
  times: Float64Array,
  timeframe: string,
  timezone: string | undefined,
  session: string | undefined,
): Float64Array {
  const c = closesOf.get(times);
  if (
    c !== undefined &&
    c.timeframe === timeframe &&
    c.timezone === timezone &&
    c.session === session &&
    // (settled input, core/bars.ts settleBars: nobody writes into it, so no compare)
    (isSettledTime(times) || sameValues(times, c.copy))
  ) {
    barCloseHits.n++;
    return c.closes;
  }
  const closes = barCloseTimes(times, timeframe, timezone, session);
  closesOf.set(times, { copy: times.slice(), timeframe, timezone, session, closes });
  return closes;
}

/** Runs served an earlier run's close times (tests assert the cache is taken). */
export const barCloseHits = { n: 0 };

const closesOf = new WeakMap<
  Float64Array,
  {
    copy: Float64Array;
    timeframe: string;
    timezone: string | undefined;
    session: string | undefined;
    closes: Float64Array;
  }
>();

const DAY_MS = 86_400_000;

/**
 * intradayFixed for the 24x7 session, whose one range is the local calendar day: a bar closes at
 * open + timeframe, cut at the local midnight after its open. The day is recomputed only when an
 * open leaves the current one (once a day for bars in time order), so the pass is one add, one
 * compare and one store a bar.
 */
function intradayAroundTheClock(times: Float64Array, barMs: number, off: number, out: Float64Array): void {
  let lo = Infinity;
  let hi = -Infinity;
  let cut = NaN;
  const n = times.length;
  for (let i = 0; i < n; i++) {
    const t = times[i]!;
    const L = t + off;
    if (L < lo || L >= hi) {
      // (ses.locate's range for L: [D, D + 1 day) in local ms, D the local day of L)
      lo = Math.floor(L / DAY_MS) * DAY_MS;
      hi = lo + DAY_MS;
      cut = hi - off;
      if (!(L >= lo && L < hi)) {
        // not a finite time: the nominal close, as barTimeClose gives it
        lo = Infinity;
        hi = -Infinity;
        out[i] = t + barMs;
        continue;
      }
    }
    const end = t + barMs;
    out[i] = cut < end ? cut : end;
  }
}

// once per run over every bar: its entry and exit get their feedback here (core/feedback.ts); the
// opens cross a midnight as a run's do
{
  const t = new Float64Array([86_400_000 - 120_000, 86_400_000 - 60_000, 86_400_000, 86_400_000 + 60_000]);
  const out = new Float64Array(t.length);
  primeFeedback(() => intradayAroundTheClock(t, 60_000, 0, out));
}

/**
 * barTimeClose for intraday bars in any zone, without a session lookup per bar, when no two session
 * ranges overlap (Session.disjoint: every one-range session, and most others): a bar closes at open +
 * timeframe, cut at the end of the session range holding its local open. The range found for one
 * bar is then the one barTimeClose finds for every later open inside it, with the same cut (the
 * range end in UTC); the cut is computed again only past the range, or when the bar's UTC offset,
 * which toUtc starts its search from, changes (a daylight-saving switch).
 */
function intradayDisjointRanges(times: Float64Array, barMs: number, zone: Zone, ses: Session, out: Float64Array): void {
  const fixedOff = zone.fixed ? zone.offsetMs(0) : NaN;
  let lo = Infinity;
  let hi = -Infinity;
  let rangeOff = NaN;
  let cut = NaN;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    const end = t + barMs;
    const off = fixedOff === fixedOff ? fixedOff : zone.offsetMs(t);
    const L = t + off;
    if (!(L >= lo && L < hi && off === rangeOff)) {
      if (!ses.locate(L)) {
        // outside the session: the nominal close (as barTimeClose)
        lo = Infinity;
        hi = -Infinity;
        out[i] = end;
        continue;
      }
      lo = ses.rangeStart;
      hi = ses.rangeEnd;
      rangeOff = off;
      cut = toUtc(zone, hi, off);
    }
    out[i] = cut < end ? cut : end;
  }
}
