#!/usr/bin/env python3
"""The numpy/scipy(/sklearn) peer of a one-shot `cpca fit` at one alpha or automatic alpha.

A hand-tuned script doing what `cpca fit` does, as a user would
write it with the scientific Python stack: read the two ImageJ TIFF stacks straight
into numpy, centre, two covariances (BLAS); at one alpha (--alpha A) the top-k
eigenvectors of C_t - A C_b by scipy.linalg.eigh(subset_by_index=...) and their target
scores written to scores.csv; for automatic alpha (the default), for each of 41 alphas (0 and 40 log-spaced
in [0.1, 1000]) the top-k eigenvectors of C_t - alpha C_b by
scipy.linalg.eigh(subset_by_index=...), the affinity of every pair of alphas as the
product of the cosines of the principal angles between their target-score subspaces
(computed in the C_t metric: k x k matrices, no n x k products), spectral clustering
(precomputed affinity; sklearn's, or the same written with scipy when sklearn is missing), one medoid alpha per cluster besides alpha = 0, and
the scores of the returned alphas written to scores.csv.

Usage: peer_fit.py [--alpha A] TARGET.tif BACKGROUND.tif OUT_DIR [k] [returned]
Prints the chosen alphas and the wall time of the script body (the process start-up of
Python and the imports come on top; `cpca bench` times the whole process).
"""
import os
import struct
import sys
import time

T0 = time.perf_counter()
import numpy as np
import scipy.linalg
try:
    from sklearn.cluster import SpectralClustering
except ImportError:  # scipy alone: the same clustering, written out below
    SpectralClustering = None


def spectral_labels(aff, n):
    """Spectral clustering of a precomputed affinity into n clusters: sklearn's when it
    is installed, else the normalised spectral embedding (the top n eigenvectors of
    D^-1/2 A D^-1/2, rows scaled to unit length) clustered by scipy's k-means++, the best
    of 10 seeded starts by within-cluster sum of squares."""
    if SpectralClustering is not None:
        return SpectralClustering(n_clusters=n, affinity="precomputed",
                                  random_state=0).fit_predict(aff)
    from scipy.cluster.vq import kmeans2
    dinv = 1.0 / np.sqrt(aff.sum(axis=1))
    _, u = np.linalg.eigh(dinv[:, None] * aff * dinv[None, :])
    e = u[:, -n:]
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    best, best_ss = None, np.inf
    for seed in range(10):
        centres, labels = kmeans2(e, n, minit="++", seed=seed)
        ss = ((e - centres[labels]) ** 2).sum()
        if ss < best_ss:
            best, best_ss = labels, ss
    return best


def read_imagej_tiff(path):
    """An uncompressed ImageJ TIFF stack (slices stored contiguously) as slices x pixels."""
    with open(path, "rb") as f:
        head = f.read(8)
        e = ">" if head[:2] == b"MM" else "<"
        (ifd,) = struct.unpack(e + "I", head[4:8])
        f.seek(ifd)
        (n,) = struct.unpack(e + "H", f.read(2))
        tags = {}
        for _ in range(n):
            tag, typ, count, value = struct.unpack(e + "HHI4s", f.read(12))
            size = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8}.get(typ, 1) * count
            if size <= 4:
                raw = value
            else:
                (off,) = struct.unpack(e + "I", value)
                pos = f.tell()
                f.seek(off)
                raw = f.read(size)
                f.seek(pos)
            tags[tag] = (typ, count, raw)

        def num(tag):
            typ, count, raw = tags[tag]
            return struct.unpack(e + ("H" if typ == 3 else "I"), raw[: 2 if typ == 3 else 4])[0]

        w, h, bits = num(256), num(257), num(258)
        offset = num(273)
        fmt = num(339) if 339 in tags else 1
        slices = 1
        if 270 in tags:
            for line in tags[270][2].decode("latin-1").split("\n"):
                if line.startswith("images="):
                    slices = int(line[7:])
    dtype = {8: "u1", 16: "u2", 32: "f4" if fmt == 3 else "u4"}[bits]
    data = np.fromfile(path, dtype=np.dtype(dtype).newbyteorder(e), count=slices * w * h,
                       offset=offset)
    return data.reshape(slices, w * h).astype(np.float64)


def write_scores(out, xt, vs, alphas, k):
    """The target scores of each returned alpha, one block of rows per alpha."""
    os.makedirs(out, exist_ok=True)
    rows = []
    for a, v in zip(alphas, vs):
        s = xt @ v
        rows.append(np.column_stack((np.arange(1, len(s) + 1), np.full(len(s), a), s)))
    np.savetxt(os.path.join(out, "scores.csv"), np.vstack(rows), delimiter=",",
               header="sample,alpha," + ",".join("cPC%d" % (c + 1) for c in range(k)),
               comments="", fmt="%.17g")


def main():
    args = sys.argv[1:]
    alpha = None
    if args[:1] == ["--alpha"]:
        alpha = float(args[1])
        args = args[2:]
    target, background, out = args[:3]
    k = int(args[3]) if len(args) > 3 else 2
    returned = int(args[4]) if len(args) > 4 else 4
    xt = read_imagej_tiff(target)
    xb = read_imagej_tiff(background)
    xt -= xt.mean(axis=0)
    xb -= xb.mean(axis=0)
    ct = xt.T @ xt / (len(xt) - 1)
    cb = xb.T @ xb / (len(xb) - 1)
    d = ct.shape[0]
    if alpha is not None:
        _, v = scipy.linalg.eigh(ct - alpha * cb, subset_by_index=[d - k, d - 1],
                                 check_finite=False, overwrite_a=True)
        write_scores(out, xt, [v[:, ::-1]], [alpha], k)
        print("seconds %.3f" % (time.perf_counter() - T0))
        return
    alphas = np.concatenate(([0.0], np.logspace(-1, 3, 40)))
    vs = []
    for a in alphas:
        _, v = scipy.linalg.eigh(ct - a * cb, subset_by_index=[d - k, d - 1],
                                 check_finite=False)
        vs.append(v[:, ::-1])
    # principal angles between the score subspaces X_t V_i, in the C_t metric
    g = len(alphas)
    ctv = [ct @ v for v in vs]
    inv = []
    for v, cv in zip(vs, ctv):
        l = np.linalg.cholesky(v.T @ cv)
        inv.append(np.linalg.inv(l))
    aff = np.eye(g)
    for i in range(g):
        for j in range(i + 1, g):
            m = inv[i] @ (vs[i].T @ ctv[j]) @ inv[j].T
            s = np.clip(np.linalg.svd(m, compute_uv=False), 0, 1)
            aff[i, j] = aff[j, i] = np.prod(s)
    labels = spectral_labels(aff, returned)
    chosen = [0]
    for c in sorted(set(labels)):
        if c == labels[0]:
            continue
        members = np.where(labels == c)[0]
        chosen.append(int(members[np.argmax(aff[np.ix_(members, members)].sum(axis=1))]))
    chosen = [0] + sorted(chosen[1:])
    write_scores(out, xt, [vs[i] for i in chosen], [alphas[i] for i in chosen], k)
    print("alphas", " ".join("%.4g" % alphas[i] for i in chosen))
    print("seconds %.3f" % (time.perf_counter() - T0))


if __name__ == "__main__":
    main()
