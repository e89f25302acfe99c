// General real eigenproblem (EISPACK orthes + hqr2, as in the public-domain JAMA package):
// orthogonal reduction to Hessenberg form, then the shifted QR algorithm with back-substitution for
// the eigenvectors. Eigenvalues come in deflation order; complex pairs have imaginary parts in e.

export function orthes(n: number, H: number[][], V: number[][]): void {
  const low = 0;
  const high = n - 1;
  const ort = new Array<number>(n).fill(0);
  for (let m = low + 1; m <= high - 1; m++) {
    let scale = 0;
    for (let i = m; i <= high; i++) scale += Math.abs(H[i]![m - 1]!);
    if (scale !== 0) {
      let h = 0;
      for (let i = high; i >= m; i--) {
        ort[i] = H[i]![m - 1]! / scale;
        h += ort[i]! * ort[i]!;
      }
      let g = Math.sqrt(h);
      if (ort[m]! > 0) g = -g;
      h -= ort[m]! * g;
      ort[m] = ort[m]! - g;
      for (let j = m; j < n; j++) {
        let f = 0;
        for (let i = high; i >= m; i--) f += ort[i]! * H[i]![j]!;
        f /= h;
        for (let i = m; i <= high; i++) H[i]![j] = H[i]![j]! - f * ort[i]!;
      }
      for (let i = 0; i <= high; i++) {
        let f = 0;
        for (let j = high; j >= m; j--) f += ort[j]! * H[i]![j]!;
        f /= h;
        for (let j = m; j <= high; j++) H[i]![j] = H[i]![j]! - f * ort[j]!;
      }
      ort[m] = scale * ort[m]!;
      H[m]![m - 1] = scale * g;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) V[i]![j] = i === j ? 1 : 0;
  for (let m = high - 1; m >= low + 1; m--) {
    if (H[m]![m - 1] !== 0) {
      for (let i = m + 1; i <= high; i++) ort[i] = H[i]![m - 1]!;
      for (let j = m; j <= high; j++) {
        let g = 0;
        for (let i = m; i <= high; i++) g += ort[i]! * V[i]![j]!;
        g = g / ort[m]! / H[m]![m - 1]!;
        for (let i = m; i <= high; i++) V[i]![j] = V[i]![j]! + g * ort[i]!;
      }
    }
  }
}

/** Complex division (xr + i xi) / (yr + i yi). */
function cdiv(xr: number, xi: number, yr: number, yi: number): [number, number] {
  if (Math.abs(yr) > Math.abs(yi)) {
    const r = yi / yr;
    const d = yr + r * yi;
    return [(xr + r * xi) / d, (xi - r * xr) / d];
  }
  const r = yr / yi;
  const d = yi + r * yr;
  return [(r * xr + xi) / d, (r * xi - xr) / d];
}

export function hqr2(nn: number, H: number[][], V: number[][], d: number[], e: number[]): void {
  let n = nn - 1;
  const low = 0;
  const high = nn - 1;
  const eps = Math.pow(2, -52);
  let exshift = 0;
  let p = 0;
  let q = 0;
  let r = 0;
  let s = 0;
  let z = 0;
  let t: number;
  let w: number;
  let x: number;
  let y: number;
  let norm = 0;
  for (let i = 0; i < nn; i++) for (let j = Math.max(i - 1, 0); j < nn; j++) norm += Math.abs(H[i]![j]!);
  let iter = 0;
  let guard = 0;
  while (n >= low) {
    if (++guard > 10000 * nn) break; // no convergence: keep what we have rather than hang
    let l = n;
    while (l > low) {
      s = Math.abs(H[l - 1]![l - 1]!) + Math.abs(H[l]![l]!);
      if (s === 0) s = norm;
      if (Math.abs(H[l]![l - 1]!) < eps * s) break;
      l--;
    }
    if (l === n) {
      H[n]![n] = H[n]![n]! + exshift;
      d[n] = H[n]![n]!;
      e[n] = 0;
      n--;
      iter = 0;
    } else if (l === n - 1) {
      w = H[n]![n - 1]! * H[n - 1]![n]!;
      p = (H[n - 1]![n - 1]! - H[n]![n]!) / 2;
      q = p * p + w;
      z = Math.sqrt(Math.abs(q));
      H[n]![n] = H[n]![n]! + exshift;
      H[n - 1]![n - 1] = H[n - 1]![n - 1]! + exshift;
      x = H[n]![n]!;
      if (q >= 0) {
        z = p >= 0 ? p + z : p - z;
        d[n - 1] = x + z;
        d[n] = d[n - 1]!;
        if (z !== 0) d[n] = x - w / z;
        e[n - 1] = 0;
        e[n] = 0;
        x = H[n]![n - 1]!;
        s = Math.abs(x) + Math.abs(z);
        p = x / s;
        q = z / s;
        r = Math.sqrt(p * p + q * q);
        p /= r;
        q /= r;
        for (let j = n - 1; j < nn; j++) {
          z = H[n - 1]![j]!;
          H[n - 1]![j] = q * z + p * H[n]![j]!;
          H[n]![j] = q * H[n]![j]! - p * z;
        }
        for (let i = 0; i <= n; i++) {
          z = H[i]![n - 1]!;
          H[i]![n - 1] = q * z + p * H[i]![n]!;
          H[i]![n] = q * H[i]![n]! - p * z;
        }
        for (let i = low; i <= high; i++) {
          z = V[i]![n - 1]!;
          V[i]![n - 1] = q * z + p * V[i]![n]!;
          V[i]![n] = q * V[i]![n]! - p * z;
        }
      } else {
        d[n - 1] = x + p;
        d[n] = x + p;
        e[n - 1] = z;
        e[n] = -z;
      }
      n -= 2;
      iter = 0;
    } else {
      x = H[n]![n]!;
      y = 0;
      w = 0;
      if (l < n) {
        y = H[n - 1]![n - 1]!;
        w = H[n]![n - 1]! * H[n - 1]![n]!;
      }
      if (iter === 10) {
        exshift += x;
        for (let i = low; i <= n; i++) H[i]![i] = H[i]![i]! - x;
        s = Math.abs(H[n]![n - 1]!) + Math.abs(H[n - 1]![n - 2]!);
        x = y = 0.75 * s;
        w = -0.4375 * s * s;
      }
      if (iter === 30) {
        s = (y - x) / 2;
        s = s * s + w;
        if (s > 0) {
          s = Math.sqrt(s);
          if (y < x) s = -s;
          s = x - w / ((y - x) / 2 + s);
          for (let i = low; i <= n; i++) H[i]![i] = H[i]![i]! - s;
          exshift += s;
          x = y = w = 0.964;
        }
      }
      iter++;
      let m = n - 2;
      while (m >= l) {
        z = H[m]![m]!;
        r = x - z;
        s = y - z;
        p = (r * s - w) / H[m + 1]![m]! + H[m]![m + 1]!;
        q = H[m + 1]![m + 1]! - z - r - s;
        r = H[m + 2]![m + 1]!;
        s = Math.abs(p) + Math.abs(q) + Math.abs(r);
        p /= s;
        q /= s;
        r /= s;
        if (m === l) break;
        if (
          Math.abs(H[m]![m - 1]!) * (Math.abs(q) + Math.abs(r)) <
          eps * (Math.abs(p) * (Math.abs(H[m - 1]![m - 1]!) + Math.abs(z) + Math.abs(H[m + 1]![m + 1]!)))
        ) {
          break;
        }
        m--;
      }
      for (let i = m + 2; i <= n; i++) {
        H[i]![i - 2] = 0;
        if (i > m + 2) H[i]![i - 3] = 0;
      }
      for (let k = m; k <= n - 1; k++) {
        const notlast = k !== n - 1;
        if (k !== m) {
          p = H[k]![k - 1]!;
          q = H[k + 1]![k - 1]!;
          r = notlast ? H[k + 2]![k - 1]! : 0;
          x = Math.abs(p) + Math.abs(q) + Math.abs(r);
          if (x === 0) continue;
          p /= x;
          q /= x;
          r /= x;
        }
        s = Math.sqrt(p * p + q * q + r * r);
        if (p < 0) s = -s;
        if (s !== 0) {
          if (k !== m) H[k]![k - 1] = -s * x;
          else if (l !== m) H[k]![k - 1] = -H[k]![k - 1]!;
          p += s;
          x = p / s;
          y = q / s;
          z = r / s;
          q /= p;
          r /= p;
          for (let j = k; j < nn; j++) {
            p = H[k]![j]! + q * H[k + 1]![j]!;
            if (notlast) {
              p += r * H[k + 2]![j]!;
              H[k + 2]![j] = H[k + 2]![j]! - p * z;
            }
            H[k]![j] = H[k]![j]! - p * x;
            H[k + 1]![j] = H[k + 1]![j]! - p * y;
          }
          for (let i = 0; i <= Math.min(n, k + 3); i++) {
            p = x * H[i]![k]! + y * H[i]![k + 1]!;
            if (notlast) {
              p += z * H[i]![k + 2]!;
              H[i]![k + 2] = H[i]![k + 2]! - p * r;
            }
            H[i]![k] = H[i]![k]! - p;
            H[i]![k + 1] = H[i]![k + 1]! - p * q;
          }
          for (let i = low; i <= high; i++) {
            p = x * V[i]![k]! + y * V[i]![k + 1]!;
            if (notlast) {
              p += z * V[i]![k + 2]!;
              V[i]![k + 2] = V[i]![k + 2]! - p * r;
            }
            V[i]![k] = V[i]![k]! - p;
            V[i]![k + 1] = V[i]![k + 1]! - p * q;
          }
        }
      }
    }
  }
  if (norm === 0) return;
  for (n = nn - 1; n >= 0; n--) {
    p = d[n]!;
    q = e[n]!;
    if (q === 0) {
      let l = n;
      H[n]![n] = 1;
      for (let i = n - 1; i >= 0; i--) {
        w = H[i]![i]! - p;
        r = 0;
        for (let j = l; j <= n; j++) r += H[i]![j]! * H[j]![n]!;
        if (e[i]! < 0) {
          z = w;
          s = r;
        } else {
          l = i;
          if (e[i] === 0) {
            H[i]![n] = w !== 0 ? -r / w : -r / (eps * norm);
          } else {
            x = H[i]![i + 1]!;
            y = H[i + 1]![i]!;
            q = (d[i]! - p) * (d[i]! - p) + e[i]! * e[i]!;
            t = (x * s - z * r) / q;
            H[i]![n] = t;
            H[i + 1]![n] = Math.abs(x) > Math.abs(z) ? (-r - w * t) / x : (-s - y * t) / z;
          }
          t = Math.abs(H[i]![n]!);
          if (eps * t * t > 1) for (let j = i; j <= n; j++) H[j]![n] = H[j]![n]! / t;
        }
      }
    } else if (q < 0) {
      let l = n - 1;
      if (Math.abs(H[n]![n - 1]!) > Math.abs(H[n - 1]![n]!)) {
        H[n - 1]![n - 1] = q / H[n]![n - 1]!;
        H[n - 1]![n] = -(H[n]![n]! - p) / H[n]![n - 1]!;
      } else {
        const [cr, ci] = cdiv(0, -H[n - 1]![n]!, H[n - 1]![n - 1]! - p, q);
        H[n - 1]![n - 1] = cr;
        H[n - 1]![n] = ci;
      }
      H[n]![n - 1] = 0;
      H[n]![n] = 1;
      for (let i = n - 2; i >= 0; i--) {
        let ra = 0;
        let sa = 0;
        for (let j = l; j <= n; j++) {
          ra += H[i]![j]! * H[j]![n - 1]!;
          sa += H[i]![j]! * H[j]![n]!;
        }
        w = H[i]![i]! - p;
        if (e[i]! < 0) {
          z = w;
          r = ra;
          s = sa;
        } else {
          l = i;
          if (e[i] === 0) {
            const [cr, ci] = cdiv(-ra, -sa, w, q);
            H[i]![n - 1] = cr;
            H[i]![n] = ci;
          } else {
            x = H[i]![i + 1]!;
            y = H[i + 1]![i]!;
            let vr = (d[i]! - p) * (d[i]! - p) + e[i]! * e[i]! - q * q;
            const vi = (d[i]! - p) * 2 * q;
            if (vr === 0 && vi === 0)
              vr = eps * norm * (Math.abs(w) + Math.abs(q) + Math.abs(x) + Math.abs(y) + Math.abs(z));
            const [cr, ci] = cdiv(x * r - z * ra + q * sa, x * s - z * sa - q * ra, vr, vi);
            H[i]![n - 1] = cr;
            H[i]![n] = ci;
            if (Math.abs(x) > Math.abs(z) + Math.abs(q)) {
              H[i + 1]![n - 1] = (-ra - w * H[i]![n - 1]! + q * H[i]![n]!) / x;
              H[i + 1]![n] = (-sa - w * H[i]![n]! - q * H[i]![n - 1]!) / x;
            } else {
              const [cr2, ci2] = cdiv(-r - y * H[i]![n - 1]!, -s - y * H[i]![n]!, z, q);
              H[i + 1]![n - 1] = cr2;
              H[i + 1]![n] = ci2;
            }
          }
          t = Math.max(Math.abs(H[i]![n - 1]!), Math.abs(H[i]![n]!));
          if (eps * t * t > 1) {
            for (let j = i; j <= n; j++) {
              H[j]![n - 1] = H[j]![n - 1]! / t;
              H[j]![n] = H[j]![n]! / t;
            }
          }
        }
      }
    }
  }
  for (let j = nn - 1; j >= low; j--) {
    for (let i = low; i <= high; i++) {
      z = 0;
      for (let k = low; k <= Math.min(j, high); k++) z += V[i]![k]! * H[k]![j]!;
      V[i]![j] = z;
    }
  }
}
