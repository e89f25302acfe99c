// Differential tests of the matrix element access and products against the code they replaced
// (issue 18: positional get/set/row/col, a product reading locals). The
// references are the previous implementations, kept verbatim; results agree bit for bit.

import { describe, expect, it } from "vitest";
import { rng } from "../ta/random.js";
import { functions as ALL } from "../../src/builtins/matrix/index.js";
import { type Dense, multiply } from "../../src/builtins/matrix/linalg.js";
import { PineArray, PineMatrix } from "../../src/core/values.js";
import { callWith, makeCtx, PineRuntimeError, site } from "./math-helpers/ctx.js";

const ref = {
  dense(rows: number, cols: number, fill = 0): Dense {
    return { rows, cols, data: new Array<number>(rows * cols).fill(fill) };
  },
  multiply(a: Dense, b: Dense): Dense {
    const out = ref.dense(a.rows, b.cols);
    for (let i = 0; i < a.rows; i++) {
      for (let j = 0; j < b.cols; j++) {
        let s = 0;
        for (let k = 0; k < a.cols; k++) s += a.data[i * a.cols + k]! * b.data[k * b.cols + j]!;
        out.data[i * b.cols + j] = s;
      }
    }
    return out;
  },
  transpose(m: PineMatrix<unknown>): unknown[] {
    const out: unknown[] = new Array(m.rows * m.cols);
    for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) out[c * m.rows + r] = m.data[r * m.cols + c];
    return out;
  },
};

const SPECIAL = [0, -0, NaN, 1, -1, Infinity, -Infinity, 1e308, 5e-324];
const r = rng(11);
const value = () => (r() < 0.15 ? SPECIAL[Math.floor(r() * SPECIAL.length)]! : (r() - 0.5) * 10 ** Math.floor(r() * 8));
const randomDense = (rows: number, cols: number): Dense => ({
  rows,
  cols,
  data: Array.from({ length: rows * cols }, value),
});
const same = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe("matrix: bit-identical to the previous element access and products", () => {
  const ctx = makeCtx();

  it("products of random shapes (empty, vectors, with NaN, -0, infinities)", () => {
    for (let t = 0; t < 400; t++) {
      const n = Math.floor(r() * 6);
      const k = Math.floor(r() * 6);
      const m = Math.floor(r() * 6);
      const a = randomDense(n, k);
      const b = randomDense(k, m);
      const got = multiply(a, b);
      const want = ref.multiply(a, b);
      expect([got.rows, got.cols]).toEqual([want.rows, want.cols]);
      if (!same(got.data, want.data)) expect(got.data).toEqual(want.data);
      const pm = callWith(ctx, "matrix.mult", [
        new PineMatrix("float", n, k, a.data.slice()),
        new PineMatrix("float", k, m, b.data.slice()),
      ]);
      expect(same(pm.data, want.data)).toBe(true);
      const vec = Array.from({ length: k }, value);
      const v = callWith(ctx, "matrix.mult", [
        new PineMatrix("float", n, k, a.data.slice()),
        new PineArray("float", vec.slice()),
      ]);
      expect(same(v.values, ref.multiply(a, { rows: k, cols: 1, data: vec }).data)).toBe(true);
    }
  });

  it("new, set, get, row, col, transpose agree with the element layout", () => {
    for (let t = 0; t < 200; t++) {
      const rows = 1 + Math.floor(r() * 5);
      const cols = 1 + Math.floor(r() * 5);
      const m = callWith(ctx, "matrix.new<type>", [rows, cols, 0], site(["float"]));
      const mirror = new Array(rows * cols).fill(0);
      for (let i = 0; i < rows * cols; i++) {
        const x = value();
        const rr = Math.floor(r() * rows);
        const cc = Math.floor(r() * cols);
        // the positional form (both backends' calls) and the argument-array form
        if (i % 2 === 0) ALL["matrix.set"]!.direct!(ctx, m, rr, cc, x);
        else callWith(ctx, "matrix.set", [m, rr + 0.7, cc, x]); // fractional indices truncate
        mirror[rr * cols + cc] = x;
      }
      expect(same(m.data, mirror)).toBe(true);
      for (let rr = 0; rr < rows; rr++)
        for (let cc = 0; cc < cols; cc++) {
          expect(Object.is(ALL["matrix.get"]!.direct!(ctx, m, rr, cc), mirror[rr * cols + cc])).toBe(true);
          expect(Object.is(callWith(ctx, "matrix.get", [m, rr, cc]), mirror[rr * cols + cc])).toBe(true);
        }
      const tr = callWith(ctx, "matrix.transpose", [m]);
      expect([tr.rows, tr.cols]).toEqual([cols, rows]);
      expect(same(tr.data, ref.transpose(m))).toBe(true);
      const c = Math.floor(r() * cols);
      expect(
        same(
          callWith(ctx, "matrix.col", [m, c]).values,
          mirror.filter((_, i) => i % cols === c),
        ),
      ).toBe(true);
      const rr = Math.floor(r() * rows);
      expect(same(callWith(ctx, "matrix.row", [m, rr]).values, mirror.slice(rr * cols, (rr + 1) * cols))).toBe(true);
    }
    const s = callWith(ctx, "matrix.new<type>", [2, 2, "x"], site(["string"]));
    callWith(ctx, "matrix.set", [s, 1, 0, "y"]);
    expect(callWith(ctx, "matrix.transpose", [s]).data).toEqual(["x", "y", "x", "x"]);
  });

  it("out-of-range indices and na matrices raise as before", () => {
    const m = callWith(ctx, "matrix.new<type>", [2, 3, 1], site(["float"]));
    expect(() => ALL["matrix.get"]!.direct!(ctx, m, 2, 0)).toThrow(PineRuntimeError);
    expect(() => ALL["matrix.set"]!.direct!(ctx, m, 0, 3, 1)).toThrow(
      "Column index 3 is out of bounds, the matrix has 3 columns.",
    );
    expect(() => callWith(ctx, "matrix.get", [null, 0, 0])).toThrow(
      "Cannot call 'matrix.get' with a matrix that is na.",
    );
    expect(ALL["matrix.rows"]!.direct!(ctx, m)).toBe(2);
    expect(ALL["matrix.columns"]!.direct!(ctx, m)).toBe(3);
  });
});
