// Every function and constant of builtins.json in the libs namespaces (math, str, array, matrix,
// map, color) has an implementation registered under its exact name.
import { readFileSync } from "node:fs";
import { BUILTINS_JSON } from "../../helpers/data.js";
import { expect, it } from "vitest";
import * as array from "../../../src/builtins/array/index.js";
import * as color from "../../../src/builtins/color/index.js";
import * as map from "../../../src/builtins/map/index.js";
import * as math from "../../../src/builtins/math/index.js";
import * as matrix from "../../../src/builtins/matrix/index.js";
import * as str from "../../../src/builtins/str/index.js";

const SPEC = BUILTINS_JSON;
const NS = /^(math|str|array|matrix|map|color)\./;

it("implements every libs builtin of builtins.json", () => {
  const spec = JSON.parse(readFileSync(SPEC, "utf8")) as {
    functions: Record<string, unknown>;
    constants: Record<string, unknown>;
  };
  const fns: Record<string, { name: string }> = {
    ...math.functions,
    ...str.functions,
    ...array.functions,
    ...matrix.functions,
    ...map.functions,
    ...color.functions,
  };
  const consts: Record<string, unknown> = { ...math.constants, ...color.constants };
  const missing = [
    ...Object.keys(spec.functions).filter((n) => NS.test(n) && !(n in fns)),
    ...Object.keys(spec.constants).filter((n) => /^(math|color)\./.test(n) && !(n in consts)),
  ];
  expect(missing).toEqual([]);
  for (const [key, def] of Object.entries(fns)) expect(def.name).toBe(key);
  const wanted = Object.keys(spec.functions).filter((n) => NS.test(n)).length;
  expect(Object.keys(fns).length).toBe(wanted);
});
