#!/usr/bin/env python3
"""Independent NumPy reference for the SSMs (Mamba-1, Mamba-3 SISO and MIMO,
exp-trapezoidal and Tustin, the fixed diagonal SSM and the complex diagonal
SSM), written from the equations in
include/irithyll/nn/ssm/*.hpp, compared with the C++ layers over 64 steps of
random input to 1e-10.

usage: ssm_ref.py PATH/TO/irithyll_test_nn_ssm   (exit 77 when numpy is missing)
"""
import sys

from refdump import Checker, run_dump

import numpy as np

TOL = 1e-10


def softplus(v):
    if v > 20.0:
        return v
    if v < -20.0:
        return np.exp(v)
    return np.log1p(np.exp(v))


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def mamba1(D, tag):
    d, n = int(D[tag + ".d_in"][0]), int(D[tag + ".n_state"][0])
    a = -np.exp(D[tag + ".log_a"])
    w_delta, b_delta = D[tag + ".w_delta"], D[tag + ".b_delta"][0]
    WB = D[tag + ".w_b"].reshape(n, d)
    WC = D[tag + ".w_c"].reshape(n, d)
    skip = D[tag + ".skip"]
    xs = D[tag + ".x"].reshape(-1, d)
    h = np.zeros((d, n))
    ys = []
    for x in xs:
        delta = softplus(w_delta @ x + b_delta)
        B, C = WB @ x + D[tag + ".b_b"], WC @ x + D[tag + ".b_c"]
        abar = np.exp(delta * a)
        bbar = np.expm1(delta * a) / a  # ZOH, a never near 0 here (A_n <= -1)
        h = abar[None, :] * h + (bbar * B)[None, :] * x[:, None]
        ys.append(h @ C + skip * x)
    return np.concatenate(ys), h.reshape(-1)


def block_diagonal(D, tag):
    d, n, m = (int(v) for v in D[tag + ".dims"])
    nb = d // m
    A = D[tag + ".a"].reshape(nb, m, m)
    WB, WC = D[tag + ".w_b"].reshape(n, d), D[tag + ".w_c"].reshape(n, d)
    h = np.zeros((nb, n, m))
    ys = []
    for x in D[tag + ".x"].reshape(-1, d):
        delta = min(softplus(D[tag + ".w_delta"] @ x + D[tag + ".b_delta"][0]), 1.0)
        B, C = WB @ x + D[tag + ".b_b"], WC @ x + D[tag + ".b_c"]
        y = D[tag + ".skip"] * x
        for b in range(nb):
            xb = x[b * m:(b + 1) * m]
            for k in range(n):
                h[b, k] = (np.eye(m) + delta * A[b]) @ h[b, k] + delta * B[k] * xb
                y[b * m:(b + 1) * m] += C[k] * h[b, k]
        ys.append(y)
    return np.concatenate(ys), h.reshape(-1)


def rms_norm(v, eps=1e-6):
    return v / np.sqrt(np.mean(v * v) + eps)


def mamba3(D, tag):
    g = lambda k: D[tag + "." + k]  # noqa: E731
    d, n, G, rank = int(g("d_in")[0]), int(g("n_state")[0]), int(g("n_groups")[0]), int(g("rank")[0])
    bc, tustin = g("bcnorm")[0] > 0.5, g("tustin")[0] > 0.5
    P = d // G
    Pe, R = (1, 1) if rank == 0 else (P, rank)
    la = g("log_a").reshape(n, 2)
    A = -np.exp(la[:, 0]) + 1j * la[:, 1]
    WB = g("w_b").reshape(G, n, R, d)
    WC = g("w_c").reshape(G, n, R, d)
    bB = g("b_b").reshape(G, n, R)
    bC = g("b_c").reshape(G, n, R)
    WX = g("w_x").reshape(G, P, R, P) if rank else None
    WY = g("w_y").reshape(G, Pe, R)
    skip = g("skip")
    xs = g("x").reshape(-1, d)
    H = np.zeros((G, n, Pe), dtype=complex)
    U = np.zeros((G, n, Pe))
    ys = []
    for x in xs:
        delta = softplus(g("w_delta") @ x + g("b_delta")[0])
        lam = sigmoid(g("w_lambda") @ x + g("b_lambda")[0])
        y = np.zeros(d)
        for gi in range(G):
            B = np.einsum("nrd,d->nr", WB[gi], x) + bB[gi]
            C = np.einsum("nrd,d->nr", WC[gi], x) + bC[gi]
            if bc:
                B = rms_norm(B.reshape(-1)).reshape(n, R)
                C = rms_norm(C.reshape(-1)).reshape(n, R)
            xg = x[gi * P:(gi + 1) * P]
            X = np.array([[xg.mean()]]) if rank == 0 else np.einsum("prq,q->pr", WX[gi], xg)
            u = B @ X.T  # (n, Pe): rank-R product
            if tustin:
                abar = (1 + delta * A / 2) / (1 - delta * A / 2)
                bbar = delta / (1 - delta * A / 2)
                H[gi] = abar[:, None] * H[gi] + bbar[:, None] * u
            else:
                alpha = np.exp(delta * A)
                beta = (1 - lam) * delta * alpha
                gamma = lam * delta
                H[gi] = alpha[:, None] * H[gi] + beta[:, None] * U[gi] + gamma * u
                U[gi] = u
            Z = C.T @ H[gi].real  # (R, Pe)
            yp = np.einsum("pr,rp->p", WY[gi], Z)
            for q in range(P):
                y[gi * P + q] = yp[0 if rank == 0 else q] + skip[gi * P + q] * xg[q]
        ys.append(y)
    state = np.stack([H.real, H.imag], axis=-1).reshape(-1)
    return np.concatenate(ys), state


def diagonal(D, tag):
    a = -np.exp(D[tag + ".log_a"])
    delta = D[tag + ".delta"][0]
    abar = np.exp(delta * a)
    bbar = np.expm1(delta * a) / a * D[tag + ".b"]  # ZOH
    h = np.zeros_like(a)
    ys = []
    for x in D[tag + ".x"]:
        h = abar * h + bbar * x
        ys.append(h @ D[tag + ".c"])
    return np.array(ys), h


def complex_diagonal(D, tag, tustin):
    la = D[tag + ".log_a"].reshape(-1, 2)
    a = -np.exp(la[:, 0]) + 1j * la[:, 1]
    n = a.size
    B = (D[tag + ".b_re"] + 1j * D[tag + ".b_im"]).reshape(-1, n)
    C_re, C_im = D[tag + ".c_re"].reshape(-1, n), D[tag + ".c_im"].reshape(-1, n)
    h = np.zeros(n, dtype=complex)
    prev = np.zeros(n, dtype=complex)
    ys = []
    for t, x in enumerate(D[tag + ".x"]):
        delta, lam = D[tag + ".delta"][t], D[tag + ".lambda"][t]
        bx = B[t] * x
        if tustin:
            den = 1.0 - 0.5 * delta * a
            h = (1.0 + 0.5 * delta * a) / den * h + delta / den * bx
        else:
            alpha = np.exp(delta * a)
            h = alpha * h + (1.0 - lam) * delta * alpha * prev + lam * delta * bx
            prev = bx
        ys.append(C_re[t] @ h.real + C_im[t] @ h.imag)
    return np.array(ys), np.stack([h.real, h.imag], axis=-1).reshape(-1)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    D = run_dump(sys.argv[1], "NumpyDump.WriteSsmReferenceData", "IRITHYLL_SSM_DUMP")
    chk = Checker(TOL)
    y, h = mamba1(D, "mamba1")
    chk.close("mamba1 outputs", y, D["mamba1.y"])
    chk.close("mamba1 state", h, D["mamba1.h"])
    y, h = diagonal(D, "diag")
    chk.close("diagonal outputs", y, D["diag.y"])
    chk.close("diagonal state", h, D["diag.h"])
    for tag, tustin in [("cdiag_tustin", True), ("cdiag_exp", False)]:
        y, h = complex_diagonal(D, tag, tustin)
        chk.close(tag + " outputs", y, D[tag + ".y"])
        chk.close(tag + " state", h, D[tag + ".h"])
    y, h = block_diagonal(D, "bd")
    chk.close("block-diagonal outputs", y, D["bd.y"])
    chk.close("block-diagonal state", h, D["bd.h"])
    for tag in ["m3_siso_exp", "m3_siso_tustin", "m3_mimo_r2", "m3_mimo_r3_nobc"]:
        y, h = mamba3(D, tag)
        chk.close(tag + " outputs", y, D[tag + ".y"])
        chk.close(tag + " state", h, D[tag + ".h"])
    chk.exit()


if __name__ == "__main__":
    main()
