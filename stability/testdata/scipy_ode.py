#!/usr/bin/env python3
"""SciPy's solve_ivp RK45 on the dense greedy-ODE instance of stability's
BenchmarkIntegrateDense_N1000_T1000, for docs/benchmarks.md.

The Go benchmark writes NAME.bin when LOADLAB_SCIPY_DIR is set:
little-endian float64s N, beta, then A (N), T (N), x0 (N) and C row-major
(N*N, C[j][i] = C_ji). This script integrates the same system in the same
coordinates as the Go default, the logits z_i = log(x_i/(1 - x_i)) of
spec section 5.2 item 1,

    dz_i/dt = beta (T_i - S_i),   S = B x,   x = expit(z),   B = C^T diag(A)

with B formed once per run and timed apart (numpy's matrix-vector product runs on OpenBLAS, both
cores), over t in [0, 1000] at rtol = atol = 1e-8, every accepted step
recorded (t_eval None), COUNT times, printing wall and CPU seconds, steps,
evaluations and the final state's distance from the Go run's if given.

usage: scipy_ode.py DIR NAME [--count 5]
"""
import argparse
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp
from scipy.special import expit, logit


def load(path):
    v = np.fromfile(path, dtype="<f8")
    n, beta = int(v[0]), v[1]
    a, t, x0 = v[2:2 + n], v[2 + n:2 + 2 * n], v[2 + 2 * n:2 + 3 * n]
    c = v[2 + 3 * n:].reshape(n, n)
    return beta, a, t, x0, c


def run(beta, b, t, z0):
    def f(_, z):
        return beta * (t - b @ expit(z))

    w0, c0 = time.perf_counter(), time.process_time()
    sol = solve_ivp(f, (0.0, 1000.0), z0, method="RK45", rtol=1e-8, atol=1e-8)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return wall, cpu, sol


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("name")
    ap.add_argument("--count", type=int, default=5)
    args = ap.parse_args()
    print(f"scipy {scipy.__version__}, numpy {np.__version__}")
    beta, a, t, x0, c = load(f"{args.dir}/{args.name}.bin")
    z0 = logit(x0)
    for _ in range(args.count):
        # B_ij = C_ji A_j, formed again for every run and timed apart
        # (setup=): Go's Integrate starts from C and A too, so the
        # like-for-like total is setup + wall. Scaling C's rows before the
        # transposing copy takes 4 ms here; np.ascontiguousarray(c.T * a)
        # takes 18-22 ms.
        w0 = time.perf_counter()
        b = (c * a[:, None]).T.copy()
        setup = time.perf_counter() - w0
        wall, cpu, sol = run(beta, b, t, z0)
        steps = len(sol.t) - 1
        print(f"{args.name}\tn={len(a)}\twall={wall:.4f}s\tcpu={cpu:.3f}s\tsetup={setup:.4f}s\tsteps={steps}\tnfev={sol.nfev}\tstatus={sol.status}", flush=True)


if __name__ == "__main__":
    main()
