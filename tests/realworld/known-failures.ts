// Scripts of the real-world corpus that fail today: the first error the test reports and the
// owning area. Never delete a script to make the suite green; fix the owner's code, then remove
// the entry here (vitest reports a fixed entry as an unexpected pass). docs/realworld.md has the
// diagnosis of each group.
export interface KnownFailure {
  /** The first error the test reports ("<mode>: <kind>: <message>" or the failed check). */
  error: string;
  /** lang, check, interpret, compile, ta, strategy, drawing, request, alert, ... */
  area: string;
}

const WHEN = "interpret: check: 'strategy.entry' has no parameter 'when'";
const LINE_EXTEND = "interpret: check: Argument 'extend' of 'line.new' is given more than once";
const BOX_BORDER = "interpret: check: Argument 'border_color' of 'box.new' is given more than once";
const LABEL_XLOC = "interpret: check: Argument 'xloc' of 'label.new' is given more than once";
const VALUEWHEN = "interpret: check: Cannot apply '>' to series float and series bool";

export const KNOWN_FAILURES: Record<string, KnownFailure> = {
  // positional arguments + a named one on a drawing constructor: the checker binds the names
  // against the chart.point overload instead of the (x, y) overload
  "v5_session_high_low_lines.pine": { error: LINE_EXTEND, area: "check (overload resolution)" },
  "v6_fibonacci_retracement_lines.pine": { error: LINE_EXTEND, area: "check (overload resolution)" },
  "v6_linefill_channels.pine": { error: LINE_EXTEND, area: "check (overload resolution)" },
  "v6_linreg_channel.pine": { error: LINE_EXTEND, area: "check (overload resolution)" },
  "v6_fvg_boxes.pine": { error: BOX_BORDER, area: "check (overload resolution)" },
  "v6_linked_udt_orderblocks.pine": { error: BOX_BORDER, area: "check (overload resolution)" },
  "v6_volume_profile_boxes.pine": { error: BOX_BORDER, area: "check (overload resolution)" },
  "v6_time_based_labels.pine": { error: LABEL_XLOC, area: "check (overload resolution)" },
  "v5_label_bar_time_and_timestamp_tz.pine": { error: LABEL_XLOC, area: "check (overload resolution)" },

  // v5 accepted the deprecated `when` argument of strategy.entry/exit/close/order/cancel
  "v5_bollinger_rsi_strategy_when.pine": { error: WHEN, area: "check/strategy (v5 signatures)" },
  "v5_strategy_percent_stops_when.pine": { error: WHEN, area: "check/strategy (v5 signatures)" },

  // ta.valuewhen is typed as its condition (bool) instead of its source
  "v6_macd_rsi_divergence_labels.pine": { error: VALUEWHEN, area: "check (ta.valuewhen return type)" },
  "v5_rsi_divergence_template.pine": { error: VALUEWHEN, area: "check (ta.valuewhen return type)" },

  // chart.point fields time/index/price are not readable
  "v6_chart_point_triangles.pine": {
    error: "interpret: check: Cannot access field 'price' of series chart.point",
    area: "check (chart.point fields)",
  },
};
