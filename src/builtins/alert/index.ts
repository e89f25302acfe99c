// alert() and alertcondition(), and the per-run alert store API the Runtime uses: createAlertStore
// (put it in ctx.ext.alerts; created lazily otherwise), alertsResult/alertConditionsResult (or the
// store's toResult()), beginTick/commitBar for realtime ticks, and the placeholder resolvers
// (resolveStrategyPlaceholders for strategy alert_message). The alert.freq_* constants are defined
// by the core module ("once_per_bar", "once_per_bar_close", "all").
import type { BuiltinTable } from "../types.js";
import { alertStoreOf, evalCondition, fireAlert, type AlertFreq } from "./store.js";

export {
  alertConditionsResult,
  alertsResult,
  alertStoreOf,
  beginTick,
  commitBar,
  createAlertStore,
  type AlertCondition,
  type AlertStore,
} from "./store.js";
export { isoTime, resolvePlaceholders, resolveStrategyPlaceholders, type StrategyAlertValues } from "./placeholders.js";

const FREQS = new Set<AlertFreq>(["once_per_bar", "once_per_bar_close", "all"]);

export const functions: BuiltinTable = {
  alert: {
    name: "alert",
    impl: (ctx, a, site) => {
      const freq = (a[1] === undefined || a[1] === null ? "once_per_bar" : String(a[1])) as AlertFreq;
      if (!FREQS.has(freq))
        ctx.runtimeError(
          `alert(): invalid freq '${freq}': use alert.freq_once_per_bar, alert.freq_once_per_bar_close or alert.freq_all`,
        );
      const message = a[0] === undefined || a[0] === null ? "" : String(a[0]);
      fireAlert(alertStoreOf(ctx), ctx, site.id, message, freq);
      return undefined;
    },
  },
  alertcondition: {
    name: "alertcondition",
    impl: (ctx, a, site) => {
      // declared by an earlier call of the run (site.state) and false now: nothing to record, no
      // store lookup (a per-bar alertcondition of a false condition was two lookups and a conversion)
      if (a[0] !== true && site.state === true) return undefined;
      const title = a[1] === undefined || a[1] === null ? "" : String(a[1]);
      const message = a[2] === undefined || a[2] === null ? "" : String(a[2]);
      evalCondition(alertStoreOf(ctx), ctx, site.id, a[0] === true, title, message);
      site.state = true;
      return undefined;
    },
  },
};
