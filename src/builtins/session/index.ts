// session.* : where the current bar sits in the symbol's trading sessions.
// The regular session is syminfo.session (a TradingView session string, default 24x7). Extended
// hours are known only when syminfo carries `session_premarket` / `session_postmarket` strings
// (TradingView's symbol-info fields); without them ispremarket/ispostmarket are false and the
// *_regular variables equal the plain ones.
// A bar belongs to a session when it opens inside it or a session opens inside the bar (a 60m bar
// at 17:00 holds a 17:05 open). It is the first bar of the day's session when its trading day differs
// from the previous bar's, and the last when its close reaches the day's session end. On daily and
// longer charts every bar is a whole session: first, last and in the market.

import type { ConstantTable, ExecContext, VariableTable } from "../types.js";
import { parseSession, type Session } from "../../core/time-sessions.js";
import { barTimeClose, isSessionStart } from "../../core/time-frames.js";
import { timeEnv, type TimeEnv } from "../time/env.js";

interface SessionBarState {
  bar: number;
  time: number;
  env: TimeEnv | null;
  pre: Session | null;
  post: Session | null;
  extended: Session | null;
  isFirst: boolean;
  isFirstRegular: boolean;
  isLast: boolean;
  isLastRegular: boolean;
  isMarket: boolean;
  isPre: boolean;
  isPost: boolean;
}

const KEY = "session.bar";

function extra(ctx: ExecContext, field: string): Session | null {
  const s = ctx.syminfo[field];
  return typeof s === "string" && s !== "" ? parseSession(s) : null;
}

function barState(ctx: ExecContext): SessionBarState {
  let st = ctx.ext[KEY] as SessionBarState | undefined;
  const env = timeEnv(ctx);
  if (st && st.bar === ctx.barIndex && st.time === ctx.time && st.env === env) return st;
  if (!st) {
    st = {
      bar: -1,
      time: NaN,
      env: null,
      pre: null,
      post: null,
      extended: null,
      isFirst: false,
      isFirstRegular: false,
      isLast: false,
      isLastRegular: false,
      isMarket: false,
      isPre: false,
      isPost: false,
    };
    ctx.ext[KEY] = st;
  }
  if (st.env !== env) {
    st.env = env;
    st.pre = extra(ctx, "session_premarket");
    st.post = extra(ctx, "session_postmarket");
    st.extended =
      st.pre || st.post
        ? parseSession([st.pre?.text, env.session.text, st.post?.text].filter((x) => x).join("|"))
        : null;
  }
  st.bar = ctx.barIndex;
  st.time = ctx.time;
  if (env.barMs === 0) {
    // Daily and longer bars hold whole sessions: each is its session's first and last bar.
    st.isFirst = st.isFirstRegular = st.isLast = st.isLastRegular = st.isMarket = true;
    st.isPre = st.isPost = false;
    return st;
  }
  const { zone, session, barMs } = env;
  const t = ctx.time;
  const prev = ctx.barIndex > 0 ? ctx.columns.time[ctx.barIndex - 1]! : NaN;
  // The scheduled close (as time_close gives it); the context's value only when there is none.
  const sched = barTimeClose(t, env.chartTf, zone, session);
  const tc = sched === sched ? sched : ctx.timeClose;
  const L = t + zone.offsetMs(t);
  const Lc = tc + zone.offsetMs(tc);
  const span = Math.max(barMs, Lc - L, 1);

  st.isMarket = session.barDay(L, L + span);
  st.isLastRegular = st.isMarket && Lc >= session.spanEnd;
  st.isFirstRegular = isSessionStart(prev, t, zone, session, barMs);
  st.isPre = !st.isMarket && st.pre !== null && st.pre.barDay(L, L + span);
  st.isPost = !st.isMarket && !st.isPre && st.post !== null && st.post.barDay(L, L + span);
  const ext = st.extended;
  if (ext) {
    st.isFirst = isSessionStart(prev, t, zone, ext, barMs);
    st.isLast = ext.barDay(L, L + span) && Lc >= ext.spanEnd;
  } else {
    st.isFirst = st.isFirstRegular;
    st.isLast = st.isLastRegular;
  }
  return st;
}

function v(name: string, get: (st: SessionBarState) => boolean): VariableTable[string] {
  return { name, get: (ctx) => get(barState(ctx)) };
}

export const variables: VariableTable = {
  "session.isfirstbar": v("session.isfirstbar", (s) => s.isFirst),
  "session.isfirstbar_regular": v("session.isfirstbar_regular", (s) => s.isFirstRegular),
  "session.islastbar": v("session.islastbar", (s) => s.isLast),
  "session.islastbar_regular": v("session.islastbar_regular", (s) => s.isLastRegular),
  "session.ismarket": v("session.ismarket", (s) => s.isMarket),
  "session.ispremarket": v("session.ispremarket", (s) => s.isPre),
  "session.ispostmarket": v("session.ispostmarket", (s) => s.isPost),
};

export const constants: ConstantTable = {
  "session.regular": "regular",
  "session.extended": "extended",
};

export const functions = {};
