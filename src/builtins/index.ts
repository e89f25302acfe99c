// The builtin registry: every namespace module merged into one table of functions, variables and
// constants, the lookup the checker resolves names against. Modules listed later win on a clash.
import type { BuiltinModule, BuiltinTable, ConstantTable, VariableTable } from "./types.js";
import * as core from "./core/index.js";
import * as plot from "./plot/index.js";
import * as input from "./input/index.js";
import * as barstate from "./barstate/index.js";
import * as log from "./log/index.js";
import * as math from "./math/index.js";
import * as str from "./str/index.js";
import * as array from "./array/index.js";
import * as matrix from "./matrix/index.js";
import * as map from "./map/index.js";
import * as color from "./color/index.js";
import * as time from "./time/index.js";
import * as timeframe from "./timeframe/index.js";
import * as session from "./session/index.js";
import * as syminfo from "./syminfo/index.js";
import * as ticker from "./ticker/index.js";
import * as chart from "./chart/index.js";
import * as ta from "./ta/index.js";
import * as strategy from "./strategy/index.js";
import * as drawing from "./drawing/index.js";
import * as alert from "./alert/index.js";
import * as request from "./request/index.js";
import * as footprint from "./footprint/index.js";
import * as volumeRow from "./volume_row/index.js";

export interface Registry {
  functions: BuiltinTable;
  variables: VariableTable;
  constants: ConstantTable;
}

const MODULES: BuiltinModule[] = [
  core,
  plot,
  input,
  barstate,
  log,
  math,
  str,
  array,
  matrix,
  map,
  color,
  time,
  timeframe,
  session,
  syminfo,
  ticker,
  chart,
  ta,
  strategy,
  drawing,
  request,
  footprint,
  volumeRow,
  alert,
];

export function mergeModules(modules: BuiltinModule[]): Registry {
  const reg: Registry = { functions: {}, variables: {}, constants: {} };
  for (const m of modules) {
    Object.assign(reg.functions, m.functions ?? {});
    Object.assign(reg.variables, m.variables ?? {});
    Object.assign(reg.constants, m.constants ?? {});
  }
  return reg;
}

/** The registry of every builtin module present in this build. */
export const registry: Registry = mergeModules(MODULES);
