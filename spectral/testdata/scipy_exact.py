#!/usr/bin/env python3
"""SciPy's dense route to the exact Kirchhoff index and every edge's
effective resistance, the peer of spectral's BenchmarkExactResistance in
docs/benchmarks.md (table "exact").

The Go benchmark writes NAME.edges (int32 u, int32 v, float64 w per edge,
little-endian) when LOADLAB_SCIPY_DIR is set. This script builds the dense
grounded Laplacian A (L = D - W without node r = n-1; positive definite on
a connected graph) and then, COUNT times and timed, factors A = U^T U
(scipy.linalg.cho_factor), inverts the triangle, Y = U^-1 (LAPACK dtrtri),
so that A^-1 = Y Y^T, and computes from the rows y_i of Y (y_r = 0)

    R_uv = |y_u - y_v|^2                      (every edge)
    Kf   = n tr A^-1 - |Y^T 1|^2              (the Kirchhoff index)

the latter from Kf = sum_{i<j} R_ij = (1/2) sum_{i,j} (M_ii + M_jj - 2 M_ij)
with M = A^-1 bordered by the zero row and column of r (spec
throttlers.md §12.3). It prints per run wall and CPU seconds, Kf, and
Foster's sum sum_e w_e R_e, which must be n - 1.

usage: scipy_exact.py DIR NAME [--count 1]
"""
import argparse
import time

import numpy as np
import scipy
import scipy.linalg as sla
from scipy.linalg import lapack


def edges(path):
    rec = np.fromfile(path, dtype=np.dtype([("u", "<i4"), ("v", "<i4"), ("w", "<f8")]))
    n = int(max(rec["u"].max(), rec["v"].max())) + 1
    return n, rec["u"].astype(np.int64), rec["v"].astype(np.int64), rec["w"]


def grounded(n, u, v, w):
    """The dense Laplacian without node n-1 (its row and column)."""
    a = np.zeros((n, n))
    np.add.at(a, (u, v), -w)
    np.add.at(a, (v, u), -w)
    a[np.diag_indices(n)] = -a.sum(axis=1)
    return a[: n - 1, : n - 1].copy()


def exact(a, n, u, v, chunk=1024):
    """Kf and every edge's resistance from the dense grounded Laplacian a."""
    c, _ = sla.cho_factor(a, lower=False, overwrite_a=True, check_finite=False)
    y, info = lapack.dtrtri(c, lower=0, overwrite_c=1)
    if info != 0:
        raise SystemExit(f"dtrtri: info = {info}")
    for i in range(1, y.shape[0]):  # cho_factor leaves the other triangle unspecified
        y[i, :i] = 0
    y = np.vstack([y, np.zeros((1, y.shape[1]))])  # y_r = 0 for the grounded node
    d = np.einsum("ij,ij->i", y, y)  # diag of M
    s = y.sum(axis=0)
    kf = n * d.sum() - s @ s
    r = np.empty(len(u))
    for k in range(0, len(u), chunk):
        uu, vv = u[k : k + chunk], v[k : k + chunk]
        r[k : k + chunk] = d[uu] + d[vv] - 2 * np.einsum("ij,ij->i", y[uu], y[vv])
    return kf, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--count", type=int, default=1)
    args = ap.parse_args()
    print(f"scipy {scipy.__version__}, numpy {np.__version__}", flush=True)
    n, u, v, w = edges(f"{args.dir}/{args.name}.edges")
    for _ in range(args.count):
        a = grounded(n, u, v, w)
        w0, c0 = time.perf_counter(), time.process_time()
        kf, r = exact(a, n, u, v)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        print(f"{args.name}\tn={n}\tm={len(u)}\twall={wall:.3f}s\tcpu={cpu:.3f}s\tkirchhoff={kf:.12g}\tfoster={w @ r:.12g}", flush=True)


if __name__ == "__main__":
    main()
