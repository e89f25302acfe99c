// Dense linear algebra on row-major Float64 data for matrix.*: LU (det, inverse), one-sided Jacobi
// SVD (rank, pseudoinverse), products and powers. Plain numbers in, new arrays out.

import { packedArray } from "../array/core.js";

export interface Dense {
  rows: number;
  cols: number;
  data: number[];
}

export function dense(rows: number, cols: number, fill = 0): Dense {
  // (a packed double array: matrix results go back to scripts, see matrix.new)
  return { rows, cols, data: packedArray(rows * cols, fill, true) };
}

export function identity(n: number): Dense {
  const m = dense(n, n);
  for (let i = 0; i < n; i++) m.data[i * n + i] = 1;
  return m;
}

export function multiply(a: Dense, b: Dense): Dense {
  const out = dense(a.rows, b.cols);
  const ad = a.data;
  const bd = b.data;
  const od = out.data;
  const n = a.rows;
  const inner = a.cols;
  const m = b.cols;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let k = 0; k < inner; k++) s += ad[i * inner + k]! * bd[k * m + j]!;
      od[i * m + j] = s;
    }
  }
  return out;
}

export function transpose(a: Dense): Dense {
  const out = dense(a.cols, a.rows);
  for (let i = 0; i < a.rows; i++) for (let j = 0; j < a.cols; j++) out.data[j * a.rows + i] = a.data[i * a.cols + j]!;
  return out;
}

/** Integer power of a square matrix by repeated squaring (power 0 = identity). */
export function power(a: Dense, p: number): Dense {
  let result = identity(a.rows);
  let base = a;
  let e = p;
  while (e > 0) {
    if (e & 1) result = multiply(result, base);
    e = Math.floor(e / 2);
    if (e > 0) base = multiply(base, base);
  }
  return result;
}

export function kron(a: Dense, b: Dense): Dense {
  const out = dense(a.rows * b.rows, a.cols * b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < a.cols; j++)
      for (let k = 0; k < b.rows; k++)
        for (let l = 0; l < b.cols; l++)
          out.data[(i * b.rows + k) * out.cols + j * b.cols + l] = a.data[i * a.cols + j]! * b.data[k * b.cols + l]!;
  return out;
}

interface LU {
  lu: number[];
  piv: number[];
  sign: number;
  n: number;
}

/** LU decomposition with partial pivoting (Doolittle, Crout-style column loop). */
function luDecompose(a: Dense): LU {
  const n = a.rows;
  const lu = a.data.slice();
  const piv = Array.from({ length: n }, (_, i) => i);
  let sign = 1;
  const col = new Array<number>(n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) col[i] = lu[i * n + j]!;
    for (let i = 0; i < n; i++) {
      const kmax = Math.min(i, j);
      let s = 0;
      for (let k = 0; k < kmax; k++) s += lu[i * n + k]! * col[k]!;
      col[i] = col[i]! - s;
      lu[i * n + j] = col[i]!;
    }
    let p = j;
    for (let i = j + 1; i < n; i++) if (Math.abs(col[i]!) > Math.abs(col[p]!)) p = i;
    if (p !== j) {
      for (let k = 0; k < n; k++) {
        const t = lu[p * n + k]!;
        lu[p * n + k] = lu[j * n + k]!;
        lu[j * n + k] = t;
      }
      const t = piv[p]!;
      piv[p] = piv[j]!;
      piv[j] = t;
      sign = -sign;
    }
    const d = lu[j * n + j]!;
    if (j < n && d !== 0) for (let i = j + 1; i < n; i++) lu[i * n + j] = lu[i * n + j]! / d;
  }
  return { lu, piv, sign, n };
}

export function determinant(a: Dense): number {
  if (a.rows === 0) return 1;
  const { lu, sign, n } = luDecompose(a);
  let d = sign;
  for (let j = 0; j < n; j++) d *= lu[j * n + j]!;
  return d;
}

/** Inverse of a square matrix, or null when it is singular. */
export function inverse(a: Dense): Dense | null {
  const { lu, piv, n } = luDecompose(a);
  for (let j = 0; j < n; j++) if (lu[j * n + j] === 0) return null;
  // Solve LU X = P I.
  const x = dense(n, n);
  for (let i = 0; i < n; i++) x.data[i * n + piv[i]!] = 1;
  for (let k = 0; k < n; k++)
    for (let i = k + 1; i < n; i++)
      for (let j = 0; j < n; j++) x.data[i * n + j] = x.data[i * n + j]! - x.data[k * n + j]! * lu[i * n + k]!;
  for (let k = n - 1; k >= 0; k--) {
    for (let j = 0; j < n; j++) x.data[k * n + j] = x.data[k * n + j]! / lu[k * n + k]!;
    for (let i = 0; i < k; i++)
      for (let j = 0; j < n; j++) x.data[i * n + j] = x.data[i * n + j]! - x.data[k * n + j]! * lu[i * n + k]!;
  }
  return x;
}

export interface Svd {
  /** m x n (columns = left singular vectors times nothing: already normalised). */
  u: Dense;
  s: number[];
  v: Dense;
}

/** One-sided Jacobi SVD of an m x n matrix with m >= n. */
export function svd(a: Dense): Svd {
  const m = a.rows;
  const n = a.cols;
  const u = { rows: m, cols: n, data: a.data.slice() };
  const v = identity(n);
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < m; i++) {
          const up = u.data[i * n + p]!;
          const uq = u.data[i * n + q]!;
          alpha += up * up;
          beta += uq * uq;
          gamma += up * uq;
        }
        if (gamma === 0) continue;
        const rel = Math.abs(gamma) / Math.sqrt(alpha * beta);
        if (!(rel > 1e-15)) continue;
        off = Math.max(off, rel);
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < m; i++) {
          const up = u.data[i * n + p]!;
          const uq = u.data[i * n + q]!;
          u.data[i * n + p] = c * up - s * uq;
          u.data[i * n + q] = s * up + c * uq;
        }
        for (let i = 0; i < n; i++) {
          const vp = v.data[i * n + p]!;
          const vq = v.data[i * n + q]!;
          v.data[i * n + p] = c * vp - s * vq;
          v.data[i * n + q] = s * vp + c * vq;
        }
      }
    }
    if (off <= 1e-15) break;
  }
  const s = new Array<number>(n).fill(0);
  for (let j = 0; j < n; j++) {
    let norm = 0;
    for (let i = 0; i < m; i++) norm += u.data[i * n + j]! ** 2;
    norm = Math.sqrt(norm);
    s[j] = norm;
    if (norm > 0) for (let i = 0; i < m; i++) u.data[i * n + j] = u.data[i * n + j]! / norm;
  }
  return { u, s, v };
}

function svdAny(a: Dense): { svd: Svd; transposed: boolean } {
  if (a.rows >= a.cols) return { svd: svd(a), transposed: false };
  return { svd: svd(transpose(a)), transposed: true };
}

function tolerance(s: number[], rows: number, cols: number): number {
  const smax = s.reduce((x, y) => Math.max(x, y), 0);
  return Math.max(rows, cols) * smax * Number.EPSILON;
}

export function rank(a: Dense): number {
  if (a.rows === 0 || a.cols === 0) return 0;
  const { svd: d } = svdAny(a);
  const tol = tolerance(d.s, a.rows, a.cols);
  return d.s.filter((x) => x > tol).length;
}

/** Moore-Penrose pseudoinverse through the SVD (singular values under the tolerance dropped). */
export function pseudoInverse(a: Dense): Dense {
  const { svd: d, transposed } = svdAny(a);
  const { u, s, v } = d;
  const tol = tolerance(s, a.rows, a.cols);
  // pinv(B) = V S^+ U^T for B = (transposed ? A^T : A), B is m x n with m >= n -> result n x m.
  const n = v.rows;
  const m = u.rows;
  const out = dense(n, m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let acc = 0;
      for (let k = 0; k < n; k++) if (s[k]! > tol) acc += (v.data[i * n + k]! * u.data[j * n + k]!) / s[k]!;
      out.data[i * m + j] = acc;
    }
  return transposed ? transpose(out) : out;
}
