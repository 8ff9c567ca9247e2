#!/usr/bin/python3
"""Solve P1 with cvxopt on an anycast network exported by loadlab.

Usage: cvxopt_p1.py NETWORK.json W C [DUAL.json]

NETWORK.json is dataio's network JSON (A, T and C_triplets or C). The costs
are those of dual.Quadratic(nw, W, C) (spec docs/specs/anycast-cdn.md §7
rows 2-3): f_j(x) = (W/2) A_j (1 - x)^2 and h_i(S) = (C/2) (S - T_i)_+^2.
Because h is non-decreasing, S = S^obs(x) = B x with B = C^T diag(A)
(spec §1.3 eq. (22)) is optimal, and P1 is the sparse QP in z = (x, u)

    minimise  sum_j (W/2) A_j (1 - x_j)^2 + sum_i (C/2) u_i^2
    subject to B x - u <= T,  u >= 0,  0 <= x <= 1,

solved by cvxopt.solvers.qp with sparse P and G (cvxopt's default KKT
solver, which keeps sparse matrices sparse). The script prints one
JSON line: N, nnz, the QP's objective, the objective re-evaluated at the
returned x (the P1 value of the point (x, S^obs(x)), clipped to the box),
cvxopt's status and its wall and CPU seconds. If DUAL.json (written by the
Go side) is given, its fields are copied into the line for the comparison.
"""
import json
import sys
import time

from cvxopt import matrix, solvers, spmatrix


def load(path):
    with open(path) as f:
        nj = json.load(f)
    a, t = nj["A"], nj["T"]
    n = len(a)
    if "C_triplets" in nj:
        trip = [(int(j), int(i), c) for j, i, c in nj["C_triplets"]]
    else:
        trip = [(j, i, c) for j, row in enumerate(nj["C"]) for i, c in enumerate(row) if c != 0]
    return n, a, t, trip


def build(n, a, t, trip, w, c):
    # B_ij = C_ji A_j: row i (proxy), column j (region).
    bi = [i for j, i, v in trip]
    bj = [j for j, i, v in trip]
    bv = [v * a[j] for j, i, v in trip]
    # z = (x, u). P = diag(W A, C), q = (-W A, 0); constant sum (W/2) A.
    p = spmatrix([w * aj for aj in a] + [c] * n, list(range(2 * n)), list(range(2 * n)))
    q = matrix([-w * aj for aj in a] + [0.0] * n)
    # G z <= h: [B -I] z <= T; -u <= 0; -x <= 0; x <= 1.
    gi, gj, gv = list(bi), list(bj), list(bv)
    r = list(range(n))
    gi += r; gj += [n + k for k in r]; gv += [-1.0] * n  # -u in the first block
    gi += [n + k for k in r]; gj += [n + k for k in r]; gv += [-1.0] * n
    gi += [2 * n + k for k in r]; gj += r; gv += [-1.0] * n
    gi += [3 * n + k for k in r]; gj += r; gv += [1.0] * n
    g = spmatrix(gv, gi, gj, (4 * n, 2 * n))
    h = matrix(list(t) + [0.0] * n + [0.0] * n + [1.0] * n)
    return p, q, g, h, (bi, bj, bv)


def p1_value(n, a, t, b, x, w, c):
    """P1 at (x, S^obs(x)) with x clipped to [0, 1]."""
    x = [min(1.0, max(0.0, v)) for v in x]
    s = [0.0] * n
    for i, j, v in zip(*b):
        s[i] += v * x[j]
    f = sum(0.5 * w * a[j] * (1 - x[j]) ** 2 for j in range(n))
    hh = sum(0.5 * c * max(0.0, s[i] - t[i]) ** 2 for i in range(n))
    return f + hh


def main():
    path, w, c = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    n, a, t, trip = load(path)
    p, q, g, h, b = build(n, a, t, trip, w, c)
    solvers.options["show_progress"] = False
    # Tight tolerances, so that the comparison with a 1e-6 certificate is
    # about cvxopt's accuracy at its best, not its defaults (1e-7 abs).
    solvers.options["abstol"] = 1e-10
    solvers.options["reltol"] = 1e-10
    solvers.options["feastol"] = 1e-10
    c0, t0 = time.process_time(), time.perf_counter()
    sol = solvers.qp(p, q, g, h)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    const = sum(0.5 * w * aj for aj in a)
    out = {
        "N": n, "nnz": len(trip),
        "cvxopt_status": sol["status"], "cvxopt_iter": sol["iterations"],
        "cvxopt_objective": sol["primal objective"] + const,
        "cvxopt_p1_at_x": p1_value(n, a, t, b, list(sol["x"][:n]), w, c),
        "cvxopt_wall_s": round(wall, 4), "cvxopt_cpu_s": round(cpu, 4),
    }
    if len(sys.argv) > 4:
        with open(sys.argv[4]) as f:
            out.update(json.load(f))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
