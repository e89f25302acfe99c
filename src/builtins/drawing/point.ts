// chart.point.*: constructors and copy. A point is a PineObject of type "chart.point" with the
// fields time, index, price, so field reads and writes go through the ordinary UDT paths.
import type { BuiltinTable } from "../types.js";
import { isPoint, newPoint, P_INDEX, P_PRICE, P_TIME } from "./objects.js";
import { int, num } from "./args.js";

export const pointFunctions: BuiltinTable = {
  "chart.point.new": {
    name: "chart.point.new",
    impl: (_c, a) => newPoint(int(a[0], NaN), int(a[1], NaN), num(a[2], NaN)),
  },
  "chart.point.from_index": {
    name: "chart.point.from_index",
    impl: (_c, a) => newPoint(NaN, int(a[0], NaN), num(a[1], NaN)),
  },
  "chart.point.from_time": {
    name: "chart.point.from_time",
    impl: (_c, a) => newPoint(int(a[0], NaN), NaN, num(a[1], NaN)),
  },
  "chart.point.now": {
    name: "chart.point.now",
    impl: (ctx, a) => newPoint(ctx.time, ctx.barIndex, num(a[0], ctx.close)),
  },
  "chart.point.copy": {
    name: "chart.point.copy",
    impl: (_c, a) => {
      const p = a[0];
      return isPoint(p)
        ? newPoint(p.fields[P_TIME] as number, p.fields[P_INDEX] as number, p.fields[P_PRICE] as number)
        : null;
    },
  },
};
