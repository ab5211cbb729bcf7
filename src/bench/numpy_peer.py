#!/usr/bin/env python3
"""The numpy/scipy peer of `cpca bench --peer`: the same computation as the Java case, the
way a careful numpy user would write it (OpenBLAS GEMM/SYRK for the covariances,
LAPACK's dsyevr for the top-k eigenpairs of one α).

Usage: numpy_peer.py CASE DIR K ALPHA
  DIR holds target.f32 and background.f32 (little-endian float32, samples × features) and
  shape.txt ("n_t n_b d"), written by the Java side so that both read the same data.
  CASE is one of
    one    covariances, C = C_t − αC_b, top-k eigenpairs (eigh, subset_by_index, driver evr),
           target scores
    auto   covariances, then for α = 0 and 40 log-spaced α over 0.1…1000: top-k eigenpairs
           and scores, and the affinity matrix between the score subspaces (principal angles)
    gram   the Gram-reduced exact cPCA for samples ≪ features: G = ZZᵀ of the stacked
           centred samples, its eigenbasis, the r × r reduced C(α), top-k, lifted back
Prints one line: "seconds=<in-process seconds after loading> loaded=<load seconds>
peak=<peak resident bytes of the process>".
"""
import resource
import sys
import time

import numpy as np
import scipy.linalg as sl


def load(folder):
    with open(folder + "/shape.txt") as f:
        nt, nb, d = (int(v) for v in f.read().split())
    xt = np.fromfile(folder + "/target.f32", dtype="<f4").reshape(nt, d)
    xb = np.fromfile(folder + "/background.f32", dtype="<f4").reshape(nb, d)
    return xt, xb


def covariance(x):
    xc = x.astype(np.float64)
    xc -= xc.mean(axis=0)
    return xc, (xc.T @ xc) / (x.shape[0] - 1)


def top(c, k):
    m = c.shape[0]
    w, v = sl.eigh(c, subset_by_index=[m - k, m - 1], driver="evr", check_finite=False,
                   overwrite_a=True)
    return w[::-1], v[:, ::-1]


def one(xt, xb, k, alpha):
    xtc, ct = covariance(xt)
    _, cb = covariance(xb)
    w, v = top(ct - alpha * cb, k)
    return xtc @ v


def auto(xt, xb, k):
    xtc, ct = covariance(xt)
    _, cb = covariance(xb)
    grid = np.concatenate([[0.0], np.logspace(-1, 3, 40)])
    bases = []
    for alpha in grid:
        w, v = top(ct - alpha * cb, k)
        q, _ = np.linalg.qr(xtc @ v)
        bases.append(q)
    g = len(grid)
    aff = np.ones((g, g))
    for i in range(g):
        for j in range(i + 1, g):
            s = np.linalg.svd(bases[i].T @ bases[j], compute_uv=False)
            aff[i, j] = aff[j, i] = np.prod(np.clip(s, 0, 1))
    return aff


def gram(xt, xb, k, alpha):
    nt, nb = xt.shape[0], xb.shape[0]
    z = np.empty((nt + nb, xt.shape[1]), dtype=np.float32)
    z[:nt] = xt - xt.mean(axis=0, dtype=np.float64).astype(np.float32)
    z[nt:] = xb - xb.mean(axis=0, dtype=np.float64).astype(np.float32)
    g = (z @ z.T).astype(np.float64)
    s, u = np.linalg.eigh(g)
    keep = s > 1e-10 * s[-1]
    s, u = s[keep], u[:, keep]
    weight = np.concatenate([np.full(nt, 1.0 / (nt - 1)), np.full(nb, -alpha / (nb - 1))])
    root = np.sqrt(s)
    # in the orthonormal basis Q = Zᵀ U Σ^(-1/2): QᵀC(α)Q = Σ^(1/2) Uᵀ W U Σ^(1/2)
    r = (u * root).T
    c = (r * weight) @ r.T
    w, y = top(c, k)
    v = z.T @ (u @ (y / root[:, None]))
    return z[:nt] @ v


def main():
    case, folder, k, alpha = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    t0 = time.perf_counter()
    xt, xb = load(folder)
    t1 = time.perf_counter()
    if case == "one":
        one(xt, xb, k, alpha)
    elif case == "auto":
        auto(xt, xb, k)
    elif case == "gram":
        gram(xt, xb, k, alpha)
    else:
        sys.exit("numpy_peer.py: unknown case '" + case + "': use one, auto or gram")
    t2 = time.perf_counter()
    # peak resident memory of the process (Linux reports kilobytes)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print("seconds=%.6f loaded=%.6f peak=%d" % (t2 - t1, t1 - t0, peak))


if __name__ == "__main__":
    main()
