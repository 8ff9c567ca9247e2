#!/usr/bin/env python3
"""SciPy's dense route to the exact rho_2 and gamma*_H2, the peer of
consensus's BenchmarkExactGammaH2 in docs/benchmarks.md (table "exact").

The Go benchmark writes NAME.edges (int32 u, int32 v, float64 w per edge,
little-endian) when LOADLAB_SCIPY_DIR is set. This script builds the dense
Laplacian L and then, COUNT times and timed, computes its eigenvalues
(scipy.linalg.eigvalsh) and from them, with sigma = 1 (spec throttlers.md
§4.4 R2 and §5.1 fact 2):

    rho_2(gamma) = sum_{i>=2} 1 / (gamma l_i (2 - gamma l_i))

at gamma_0 = 1 / (the largest weighted degree), the update cycle the Go
benchmark evaluates Rho at (stable: l_n < 2 d_max on a graph that is
not regular bipartite), and gamma*_H2, the root of

    g(gamma) = sum_{i>=2} (1 - gamma l_i) / (l_i (2 - gamma l_i)^2)

in [1/l_n, min(1/l_2, 2/l_n)) by scipy.optimize.brentq, with rho_2 there.
It prints per run wall and CPU seconds and the three values.

usage: scipy_gammah2.py DIR NAME [--count 1]
"""
import argparse
import time

import numpy as np
import scipy
import scipy.linalg as sla
from scipy.optimize import brentq


def laplacian(path):
    rec = np.fromfile(path, dtype=np.dtype([("u", "<i4"), ("v", "<i4"), ("w", "<f8")]))
    n = int(max(rec["u"].max(), rec["v"].max())) + 1
    u, v, w = rec["u"].astype(np.int64), rec["v"].astype(np.int64), rec["w"]
    a = np.zeros((n, n))
    np.add.at(a, (u, v), -w)
    np.add.at(a, (v, u), -w)
    a[np.diag_indices(n)] = -a.sum(axis=1)
    return a


def rho2(gamma, lam):
    x = gamma * lam
    return np.sum(1 / (x * (2 - x)))


def gamma_h2(lam):
    """gamma*_H2 and rho_2 there from the nonzero eigenvalues lam (ascending)."""
    l2, ln = lam[0], lam[-1]

    def g(gamma):
        x = gamma * lam
        return np.sum((1 - x) / (lam * (2 - x) ** 2))

    lo = 1 / ln
    hi = min(1 / l2, 2 / ln * (1 - 1e-12))  # g < 0 there; g(lo) >= 0
    if g(lo) <= 0:
        gam = lo
    else:
        gam = brentq(g, lo, hi, xtol=1e-15 * lo)
    return gam, rho2(gam, lam)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--count", type=int, default=1)
    args = ap.parse_args()
    print(f"scipy {scipy.__version__}, numpy {np.__version__}", flush=True)
    lap0 = laplacian(f"{args.dir}/{args.name}.edges")
    gamma0 = 1 / lap0.diagonal().max()
    for _ in range(args.count):
        lap = lap0.copy()
        w0, c0 = time.perf_counter(), time.process_time()
        lam = sla.eigvalsh(lap, overwrite_a=True, check_finite=False)[1:]
        r0 = rho2(gamma0, lam)
        gam, r = gamma_h2(lam)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        print(f"{args.name}\tn={lap0.shape[0]}\twall={wall:.3f}s\tcpu={cpu:.3f}s\tgamma0={gamma0:.6g}\trho2(gamma0)={r0:.12g}\tgamma={gam:.12g}\trho2={r:.12g}\tkirchhoff={lap0.shape[0] * np.sum(1 / lam):.12g}", flush=True)


if __name__ == "__main__":
    main()
