// barstate.*: where the current bar stands (first, last, historical, realtime, new tick, confirmed).
import type { ExecContext, VariableTable } from "../types.js";

const v = (name: string, get: (c: ExecContext) => boolean) => ({ name, get });

export const variables: VariableTable = {
  "barstate.isfirst": v("barstate.isfirst", (c) => c.barIndex === 0),
  // the reference: "true for all real-time bars in barset", not only the data's last bar
  "barstate.islast": v("barstate.islast", (c) => c.isRealtime || c.barIndex === c.barCount - 1),
  "barstate.ishistory": v("barstate.ishistory", (c) => !c.isRealtime),
  "barstate.isrealtime": v("barstate.isrealtime", (c) => c.isRealtime),
  "barstate.isnew": v("barstate.isnew", (c) => c.isNewTick),
  "barstate.isconfirmed": v("barstate.isconfirmed", (c) => c.isConfirmed),
  "barstate.islastconfirmedhistory": v(
    "barstate.islastconfirmedhistory",
    (c) => !c.isRealtime && c.barIndex === ((c.ext.lastHistoryBar as number | undefined) ?? c.barCount - 1),
  ),
};
