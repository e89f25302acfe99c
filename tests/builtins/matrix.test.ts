import { describe, expect, it } from "vitest";
import { eigen } from "../../src/builtins/matrix/eigen.js";
import { determinant, inverse, multiply, pseudoInverse, rank } from "../../src/builtins/matrix/linalg.js";
import { valueToString } from "../../src/builtins/str/tostring.js";
import { PineMatrix } from "../../src/core/values.js";
import { callWith, expectedMessages, makeCtx, PineRuntimeError, site } from "./math-helpers/ctx.js";

const ctx = makeCtx();
const call = (name: string, ...args: unknown[]) => callWith(ctx, name, args);
const ts = (v: unknown) => valueToString(v);
const newM = (rows: number, cols: number, init: number) =>
  callWith(ctx, "matrix.new<type>", [rows, cols, init], site(["float"]));
function fromRows(rows: number[][]): PineMatrix<number> {
  return new PineMatrix<number>("float", rows.length, rows[0]!.length, rows.flat());
}
const dense = (rows: number[][]) => ({ rows: rows.length, cols: rows[0]!.length, data: rows.flat() });

describe("matrix linear algebra", () => {
  it("det, inverse, rank, pinv", () => {
    expect(
      determinant(
        dense([
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toBeCloseTo(-2, 12);
    expect(
      determinant(
        dense([
          [2, 0, 0],
          [0, 3, 0],
          [0, 0, 4],
        ]),
      ),
    ).toBe(24);
    const inv = inverse(
      dense([
        [4, 7],
        [2, 6],
      ]),
    )!;
    expect(inv.data.map((x) => +x.toFixed(12))).toEqual([0.6, -0.7, -0.2, 0.4]);
    expect(
      inverse(
        dense([
          [1, 2],
          [2, 4],
        ]),
      ),
    ).toBeNull();
    expect(
      rank(
        dense([
          [1, 2, 3],
          [2, 4, 6],
          [3, 6, 9],
        ]),
      ),
    ).toBe(1);
    expect(
      rank(
        dense([
          [1, 0],
          [0, 1],
          [1, 1],
        ]),
      ),
    ).toBe(2);
    const a = dense([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    const p = pseudoInverse(a);
    expect([p.rows, p.cols]).toEqual([2, 3]);
    // A * pinv(A) * A == A
    const back = multiply(multiply(a, p), a);
    back.data.forEach((x, i) => {
      expect(x).toBeCloseTo(a.data[i]!, 10);
    });
  });
  it("eigen of an empty or na matrix does not hang", () => {
    expect(eigen([]).values).toEqual([]);
    expect(
      eigen([
        [1, NaN],
        [0, 1],
      ]).values.every((x) => Number.isNaN(x)),
    ).toBe(true);
  });
  it("eigenvalues of general and symmetric matrices", () => {
    expect(
      eigen([
        [4, -2],
        [1, 1],
      ]).values,
    ).toEqual([3, 2]);
    const sym = eigen([
      [2, 1],
      [1, 2],
    ]);
    // symmetric: largest first, as TradingView lists them (PineForge matrix-covariance-eigen-pca)
    expect(sym.values.map((x) => +x.toFixed(12))).toEqual([3, 1]);
    const e3 = eigen([
      [2, 0, 0],
      [1, 3, 0],
      [4, 5, 6],
    ])
      .values.map((x) => +x.toFixed(9))
      .sort();
    expect(e3).toEqual([2, 3, 6]);
    // Av = lambda v for each eigenvector of a non-symmetric matrix
    const m = [
      [1, 2, 0],
      [0, 3, 1],
      [1, 0, 2],
    ];
    const { values, vectors, imag } = eigen(m);
    for (let k = 0; k < 3; k++) {
      if (imag[k] !== 0) continue;
      for (let i = 0; i < 3; i++) {
        let av = 0;
        for (let j = 0; j < 3; j++) av += m[i]![j]! * vectors[j]![k]!;
        expect(av).toBeCloseTo(values[k]! * vectors[i]![k]!, 9);
      }
    }
  });
});

describe("matrix.* builtins", () => {
  it("bounds errors", () => {
    const m = newM(2, 2, 0);
    expect(() => call("matrix.get", m, 2, 0)).toThrow(PineRuntimeError);
    expect(() => call("matrix.reshape", m, 3, 1)).toThrow(PineRuntimeError);
    expect(() => call("matrix.det", newM(2, 3, 1))).toThrow(PineRuntimeError);
  });
  it("size guard on results (kron)", () => {
    expect(() => call("matrix.kron", newM(200, 200, 1), newM(20, 20, 1))).toThrow(
      "The matrix cannot contain more than 100000 elements.",
    );
  });
  it("add_row with an array, remove_col returns the column", () => {
    const m = callWith(ctx, "matrix.new<type>", [], site(["int"]));
    call("matrix.add_row", m, 0, callWith(ctx, "array.from", [1, 2, 3], site(["int"])));
    call("matrix.add_row", m, 1, callWith(ctx, "array.from", [4, 5, 6], site(["int"])));
    expect([m.rows, m.cols]).toEqual([2, 3]);
    expect(call("matrix.remove_col", m, 1).values).toEqual([2, 5]);
    expect(m.data).toEqual([1, 3, 4, 6]);
  });
  it("mult by an array gives an array; by a scalar a matrix", () => {
    const m = fromRows([
      [1, 2],
      [3, 4],
    ]);
    expect(call("matrix.mult", m, callWith(ctx, "array.from", [1, 1], site(["float"]))).values).toEqual([3, 7]);
    expect(call("matrix.mult", m, 2).data).toEqual([2, 4, 6, 8]);
  });
  it("sort rows by a column, descending", () => {
    const m = fromRows([
      [1, 9],
      [3, 8],
      [2, 7],
    ]);
    call("matrix.sort", m, 0, "descending");
    expect(m.data).toEqual([3, 8, 2, 7, 1, 9]);
  });
  it("predicates", () => {
    expect(
      call(
        "matrix.is_triangular",
        fromRows([
          [1, 0],
          [5, 1],
        ]),
      ),
    ).toBe(true);
    expect(
      call(
        "matrix.is_antisymmetric",
        fromRows([
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      call(
        "matrix.is_stochastic",
        fromRows([
          [0.5, 0.5],
          [1, 0],
        ]),
      ),
    ).toBe(true);
  });
});

describe("matrix Pine Logs ground truth (direct calls)", () => {
  it("matrix_test_001_matrix_basic", () => {
    const out: string[] = [];
    const log = (s: string) => out.push(s);
    const set = (m: unknown, r: number, c: number, v: number) => call("matrix.set", m, r, c, v);
    const m1 = newM(3, 3, 1.5);
    log(
      `Test 1 - new(3,3,1.5): rows=${ts(call("matrix.rows", m1))}, cols=${ts(call("matrix.columns", m1))}, elements=${ts(call("matrix.elements_count", m1))}`,
    );
    set(m1, 0, 0, 5);
    set(m1, 1, 1, 10);
    set(m1, 2, 2, 15);
    log("Test 2 - get(1,1): " + ts(call("matrix.get", m1, 1, 1)));
    call("matrix.fill", m1, 2.0);
    log("Test 3 - fill(2.0) then get(0,0): " + ts(call("matrix.get", m1, 0, 0)));
    call("matrix.add_row", m1, 1);
    call("matrix.add_col", m1, 2);
    log(`Test 4 - after add_row/col: rows=${ts(call("matrix.rows", m1))}, cols=${ts(call("matrix.columns", m1))}`);
    const m2 = newM(3, 3, 0);
    for (let i = 0; i < 3; i++) set(m2, i, i, 1);
    log("Test 5 - is_identity: " + ts(call("matrix.is_identity", m2)));
    log("Test 5 - is_diagonal: " + ts(call("matrix.is_diagonal", m2)));
    log("Test 5 - is_symmetric: " + ts(call("matrix.is_symmetric", m2)));
    const m3 = fromRows([
      [1, 2],
      [3, 4],
    ]);
    log("Test 6 - det([[1,2],[3,4]]): " + ts(call("matrix.det", m3)));
    log("Test 6 - trace: " + ts(call("matrix.trace", m3)));
    const m4 = fromRows([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    log(
      `Test 7 - avg: ${ts(call("matrix.avg", m4))}, max: ${ts(call("matrix.max", m4))}, min: ${ts(call("matrix.min", m4))}`,
    );
    const row = call("matrix.row", m4, 0);
    const col = call("matrix.col", m4, 1);
    log(`Test 8 - row(0): [${row.values.map(ts).join(",")}]`);
    log(`Test 8 - col(1): [${col.values.map(ts).join(",")}]`);
    const m5 = fromRows([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const m6 = fromRows([
      [7, 8],
      [9, 10],
      [11, 12],
    ]);
    const mm = call("matrix.mult", m5, m6);
    log(`Test 9 - mult result shape: ${ts(call("matrix.rows", mm))}x${ts(call("matrix.columns", mm))}`);
    log(`Test 9 - mult[0,0]: ${ts(call("matrix.get", mm, 0, 0))}, mult[1,1]: ${ts(call("matrix.get", mm, 1, 1))}`);
    const mt = call("matrix.transpose", m5);
    log(`Test 10 - transpose shape: ${ts(call("matrix.rows", mt))}x${ts(call("matrix.columns", mt))}`);
    const mc = call("matrix.copy", m3);
    set(mc, 0, 0, 99);
    log(`Test 11 - original[0,0]: ${ts(call("matrix.get", m3, 0, 0))}, copy[0,0]: ${ts(call("matrix.get", mc, 0, 0))}`);
    const m7 = newM(3, 3, 0);
    for (let i = 0; i <= 2; i++) for (let j = 0; j <= 2; j++) set(m7, i, j, i * 3 + j + 1);
    const sub = call("matrix.submatrix", m7, 0, 2, 0, 2);
    log(`Test 12 - submatrix shape: ${ts(call("matrix.rows", sub))}x${ts(call("matrix.columns", sub))}`);
    log(`Test 12 - submatrix[0,0]: ${ts(call("matrix.get", sub, 0, 0))}, [1,1]: ${ts(call("matrix.get", sub, 1, 1))}`);
    const m8 = newM(2, 3, 0);
    call("matrix.reshape", m8, 3, 2);
    log(`Test 13 - reshape to 3x2: rows=${ts(call("matrix.rows", m8))}, cols=${ts(call("matrix.columns", m8))}`);
    const m9 = newM(3, 3, 1);
    call("matrix.remove_row", m9, 1);
    call("matrix.remove_col", m9, 1);
    log(`Test 14 - after remove_row/col: rows=${ts(call("matrix.rows", m9))}, cols=${ts(call("matrix.columns", m9))}`);
    const m10 = newM(3, 3, 0);
    set(m10, 0, 0, 1);
    set(m10, 1, 0, 2);
    set(m10, 2, 0, 3);
    call("matrix.swap_rows", m10, 0, 2);
    log(
      `Test 15 - after swap_rows: [0,0]=${ts(call("matrix.get", m10, 0, 0))}, [2,0]=${ts(call("matrix.get", m10, 2, 0))}`,
    );
    call("matrix.swap_columns", m10, 0, 1);
    log(
      `Test 15 - after swap_columns: [0,0]=${ts(call("matrix.get", m10, 0, 0))}, [0,1]=${ts(call("matrix.get", m10, 0, 1))}`,
    );
    const cat = call("matrix.concat", newM(2, 2, 1), newM(2, 2, 2));
    log(`Test 16 - concat shape: ${ts(call("matrix.rows", cat))}x${ts(call("matrix.columns", cat))}`);
    const m13 = fromRows([
      [9, 3, 6],
      [2, 8, 5],
      [7, 1, 4],
    ]);
    call("matrix.sort", m13, 0, "ascending");
    log(
      `Test 17 - after sort col 0: [0,0]=${ts(call("matrix.get", m13, 0, 0))}, [1,0]=${ts(call("matrix.get", m13, 1, 0))}, [2,0]=${ts(call("matrix.get", m13, 2, 0))}`,
    );
    const m14 = fromRows([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    call("matrix.reverse", m14);
    log(
      `Test 18 - after reverse: [0,0]=${ts(call("matrix.get", m14, 0, 0))}, [1,2]=${ts(call("matrix.get", m14, 1, 2))}`,
    );
    log(
      "Test 19 - rank: " +
        ts(
          call(
            "matrix.rank",
            fromRows([
              [1, 2, 3],
              [2, 4, 6],
              [3, 6, 9],
            ]),
          ),
        ),
    );
    const mp = call(
      "matrix.pow",
      fromRows([
        [2, 0],
        [0, 2],
      ]),
      3,
    );
    log(`Test 20 - pow(3): [0,0]=${ts(call("matrix.get", mp, 0, 0))}, [1,1]=${ts(call("matrix.get", mp, 1, 1))}`);
    const m17 = fromRows([
      [1, 2, 2],
      [3, 2, 4],
    ]);
    log(`Test 21 - median: ${ts(call("matrix.median", m17))}, mode: ${ts(call("matrix.mode", m17))}`);
    const m18 = newM(2, 3, 0);
    log(`Test 22 - is_zero: ${ts(call("matrix.is_zero", m18))}, is_square: ${ts(call("matrix.is_square", m18))}`);
    const m19 = newM(2, 2, 3);
    const m20 = newM(2, 2, 1);
    log(`Test 23 - sum: [0,0]=${ts(call("matrix.get", call("matrix.sum", m19, m20), 0, 0))} (should be 4.0)`);
    log(`Test 23b - diff: [0,0]=${ts(call("matrix.get", call("matrix.diff", m19, m20), 0, 0))} (should be 2.0)`);
    const kr = call(
      "matrix.kron",
      fromRows([
        [1, 2],
        [3, 4],
      ]),
      fromRows([
        [0, 5],
        [6, 7],
      ]),
    );
    log(`Test 24 - kron shape: ${ts(call("matrix.rows", kr))}x${ts(call("matrix.columns", kr))}`);
    log(`Test 24 - kron[0,1]: ${ts(call("matrix.get", kr, 0, 1))}, kron[3,3]: ${ts(call("matrix.get", kr, 3, 3))}`);
    const ev = call(
      "matrix.eigenvalues",
      fromRows([
        [4, -2],
        [1, 1],
      ]),
    );
    log("Test 25 - eigenvalues count: " + ts(call("array.size", ev)));
    log(`Test 25 - eigenvalue[0]: ${ts(call("array.get", ev, 0))}, eigenvalue[1]: ${ts(call("array.get", ev, 1))}`);
    const inv = call(
      "matrix.inv",
      fromRows([
        [4, 7],
        [2, 6],
      ]),
    );
    log(`Test 26 - inv[0,0]: ${ts(call("matrix.get", inv, 0, 0))}, inv[1,1]: ${ts(call("matrix.get", inv, 1, 1))}`);
    const pinv = call(
      "matrix.pinv",
      fromRows([
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
    );
    log(`Test 27 - pinv shape: ${ts(call("matrix.rows", pinv))}x${ts(call("matrix.columns", pinv))}`);
    log(
      "Test 28 - is_stochastic: " +
        ts(
          call(
            "matrix.is_stochastic",
            fromRows([
              [0.3, 0.7],
              [0.4, 0.6],
            ]),
          ),
        ),
    );
    log(
      "Test 28 - is_antidiagonal: " +
        ts(
          call(
            "matrix.is_antidiagonal",
            fromRows([
              [0, 1],
              [2, 0],
            ]),
          ),
        ),
    );
    log(
      "Test 29 - is_antisymmetric: " +
        ts(
          call(
            "matrix.is_antisymmetric",
            fromRows([
              [0, 2],
              [-2, 0],
            ]),
          ),
        ),
    );
    log(
      "Test 29 - is_binary: " +
        ts(
          call(
            "matrix.is_binary",
            fromRows([
              [0, 1],
              [1, 0],
            ]),
          ),
        ),
    );
    log(
      "Test 30 - is_triangular: " +
        ts(
          call(
            "matrix.is_triangular",
            fromRows([
              [1, 2, 3],
              [0, 4, 5],
              [0, 0, 6],
            ]),
          ),
        ),
    );
    log("All matrix operation tests completed!");
    expect(out).toEqual(expectedMessages("matrix_test_001_matrix_basic"));
  });
});
