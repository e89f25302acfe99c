// Real eigen-decomposition for matrix.eigenvalues / matrix.eigenvectors, following the classic
// EISPACK route (as in the public-domain JAMA package): symmetric matrices are reduced to
// tridiagonal form (tred2) and diagonalised by the QL algorithm (tql2), eigenvalues listed largest first;
// general matrices go to Hessenberg form (orthes) and through the shifted QR algorithm (hqr2),
// which yields the eigenvalues in deflation order ([[4,-2],[1,1]] -> [3, 2], as TradingView prints).
// Complex pairs keep their real parts in the values; vectors are the columns of V.

import { packedArray } from "../array/core.js";
import { hqr2, orthes } from "./eigen-general.js";
import { tql2, tred2 } from "./eigen-symmetric.js";

export interface Eigen {
  values: number[];
  imag: number[];
  /** n x n, column j = eigenvector j. */
  vectors: number[][];
}

function isSymmetric(a: number[][]): boolean {
  const n = a.length;
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (a[i]![j] !== a[j]![i]) return false;
  return true;
}

export function eigen(a: number[][]): Eigen {
  const n = a.length;
  // (packed double arrays: the eigenvalues go back to scripts as an array, see matrix.new)
  const d = packedArray(n, 0, true);
  const e = packedArray(n, 0, true);
  if (a.some((row) => row.some((x) => x !== x))) {
    // na anywhere: no decomposition (the iterations would not converge).
    return { values: d.fill(NaN), imag: e, vectors: a.map(() => new Array<number>(n).fill(NaN)) };
  }
  if (n === 0) return { values: d, imag: e, vectors: [] };
  if (isSymmetric(a)) {
    const V = a.map((row) => row.slice());
    tred2(n, V, d, e);
    tql2(n, V, d, e);
    // tql2 sorts ascending; TradingView lists a symmetric matrix's eigenvalues largest first
    // (PineForge matrix-covariance-eigen-pca: `eigenvalues().get(0)` is the principal variance)
    d.reverse();
    for (const row of V) row.reverse();
    return { values: d, imag: e, vectors: V };
  }
  const H = a.map((row) => row.slice());
  const V = a.map(() => new Array<number>(n).fill(0));
  orthes(n, H, V);
  hqr2(n, H, V, d, e);
  return { values: d, imag: e, vectors: V };
}
