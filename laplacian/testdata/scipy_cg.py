#!/usr/bin/env python3
"""SciPy's sparse conjugate gradient on the graphs of laplacian's solve
benchmarks, for docs/benchmarks.md.

The Go benchmarks write NAME.edges (int32 u, int32 v, float64 w per edge,
little-endian) and NAME.rhs (float64 per node) when LOADLAB_SCIPY_DIR is
set; this script builds the same Laplacian L = D - W as a CSR matrix,
projects b onto the complement of the constants as the Go solver does,
and runs scipy.sparse.linalg.cg (no preconditioner; SciPy has none for
Laplacians) to the same relative residual, COUNT times, printing wall and
CPU seconds, iterations and the true relative residual.

With --setup each run also times building the Laplacian from the edge
arrays (COO to CSR, the degrees), the peer of a Go solve that includes
NewSolver.

usage: scipy_cg.py DIR NAME [NAME ...] [--tol 1e-8] [--count 3] [--jacobi] [--setup]
"""
import argparse
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def read_edges(path):
    return np.fromfile(path, dtype=np.dtype([("u", "<i4"), ("v", "<i4"), ("w", "<f8")]))


def laplacian(rec):
    n = int(max(rec["u"].max(), rec["v"].max())) + 1
    u, v, w = rec["u"], rec["v"], rec["w"]
    a = sp.coo_matrix((np.concatenate([w, w]), (np.concatenate([u, v]), np.concatenate([v, u]))), shape=(n, n)).tocsr()
    deg = np.asarray(a.sum(axis=1)).ravel()
    return (sp.diags(deg) - a).tocsr(), deg


def run(lap, deg, b, tol, jacobi):
    iters = [0]

    def count(_):
        iters[0] += 1

    m = sp.diags(1 / deg) if jacobi else None
    kw = {"rtol": tol} if tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (1, 12) else {"tol": tol}
    w0, c0 = time.perf_counter(), time.process_time()
    x, info = spla.cg(lap, b, M=m, maxiter=100000, callback=count, atol=0.0, **kw)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    res = np.linalg.norm(b - lap @ x) / np.linalg.norm(b)
    return wall, cpu, iters[0], res, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("names", nargs="+")
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--jacobi", action="store_true")
    ap.add_argument("--setup", action="store_true")
    args = ap.parse_args()
    print(f"scipy {scipy.__version__}, numpy {np.__version__}")
    for name in args.names:
        rec = read_edges(f"{args.dir}/{name}.edges")
        lap, deg = laplacian(rec)
        b = np.fromfile(f"{args.dir}/{name}.rhs", dtype="<f8")
        b = b - b.mean()
        for _ in range(args.count):
            sw, sc = 0.0, 0.0
            if args.setup:
                w0, c0 = time.perf_counter(), time.process_time()
                lap, deg = laplacian(rec)
                sw, sc = time.perf_counter() - w0, time.process_time() - c0
            wall, cpu, it, res, info = run(lap, deg, b, args.tol, args.jacobi)
            wall, cpu = wall + sw, cpu + sc
            print(f"{name}\tn={lap.shape[0]}\tnnz={lap.nnz}\twall={wall:.3f}s\tcpu={cpu:.3f}s\titers={it}\trelres={res:.2e}\tinfo={info}", flush=True)


if __name__ == "__main__":
    main()
