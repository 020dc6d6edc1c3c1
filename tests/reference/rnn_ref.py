#!/usr/bin/env python3
"""Independent NumPy reference for the recurrent cells (sLSTM with sigmoid and
exponential forget gates, the plain LSTM, minGRU, the delay convolution), written from the
equations in include/irithyll/nn/rnn/*.hpp and compared with the C++ cells over
64 steps of random input to 1e-10.

usage: rnn_ref.py PATH/TO/irithyll_test_nn_rnn   (exit 77 when numpy is missing)
"""
import sys

from refdump import Checker, run_dump

import numpy as np

TOL = 1e-10


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def slstm(D, tag):
    d, H, heads = (int(v) for v in D[tag + ".dims"])
    dph = H // heads
    exp_forget = D[tag + ".exp_forget"][0] > 0.5
    W = [D[f"{tag}.w{g}"].reshape(H, d) for g in range(4)]
    # Block-diagonal recurrence as a full matrix: unit j reads its own head.
    R = []
    for g in range(4):
        rows = D[f"{tag}.r{g}"].reshape(H, dph)
        full = np.zeros((H, H))
        for j in range(H):
            h0 = (j // dph) * dph
            full[j, h0:h0 + dph] = rows[j]
        R.append(full)
    b = [D[f"{tag}.b{g}"] for g in range(4)]
    h, c, n, m = np.zeros(H), np.zeros(H), np.ones(H), np.zeros(H)
    ys = []
    for x in D[tag + ".x"].reshape(-1, d):
        pre = [W[g] @ x + R[g] @ h + b[g] for g in range(4)]
        ft, it = np.clip(pre[0], -20, 20), np.clip(pre[1], -20, 20)
        lf = ft if exp_forget else np.log(sigmoid(ft))
        m_new = np.maximum(lf + m, it)
        fs, is_ = np.exp(lf + m - m_new), np.exp(it - m_new)
        c = fs * c + is_ * np.tanh(pre[3])
        n = fs * n + is_
        h = sigmoid(pre[2]) * c / n
        m = m_new
        ys.append(h.copy())
    return np.concatenate(ys), c, n, m


def lstm(D, tag):
    """Hochreiter & Schmidhuber 1997 with a forget gate: gates i, f, o, g on [x, h]."""
    d, H = (int(v) for v in D[tag + ".dims"])
    W = [D[f"{tag}.w{g}"].reshape(H, d + H) for g in range(4)]
    b = [D[f"{tag}.b{g}"] for g in range(4)]
    h, c = np.zeros(H), np.zeros(H)
    ys = []
    for x in D[tag + ".x"].reshape(-1, d):
        z = np.concatenate([x, h])
        i, f, o = (sigmoid(W[g] @ z + b[g]) for g in range(3))
        c = f * c + i * np.tanh(W[3] @ z + b[3])
        h = o * np.tanh(c)
        ys.append(h.copy())
    return np.concatenate(ys), c


def mingru(D):
    d, H = (int(v) for v in D["mingru.dims"])
    Wz, bz = D["mingru.w_z"].reshape(H, d + H), D["mingru.b_z"]
    Wh, bh = D["mingru.w_h"].reshape(H, d), D["mingru.b_h"]
    h = np.zeros(H)
    ys = []
    for x in D["mingru.x"].reshape(-1, d):
        z = sigmoid(Wz @ np.concatenate([x, h]) + bz)
        h = (1 - z) * h + z * (Wh @ x + bh)
        ys.append(h.copy())
    return np.concatenate(ys)


def conv(D):
    d, K = (int(v) for v in D["conv.dims"])
    w = D["conv.w"].reshape(d, K)
    lag = np.floor(D["conv.delay"].reshape(d, K) + 0.5).astype(int)  # round half away (delays >= 0)
    xs = D["conv.x"].reshape(-1, d)
    ys = []
    for t in range(len(xs)):
        y = np.zeros(d)
        for c in range(d):
            for k in range(K):
                if t - lag[c, k] >= 0:
                    y[c] += w[c, k] * xs[t - lag[c, k], c]
        ys.append(y)
    return np.concatenate(ys)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    D = run_dump(sys.argv[1], "NumpyDump.WriteRnnReferenceData", "IRITHYLL_RNN_DUMP")
    chk = Checker(TOL)
    for tag in ["slstm_sig", "slstm_exp", "slstm_big"]:
        y, c, n, m = slstm(D, tag)
        chk.close(tag + " outputs", y, D[tag + ".y"])
        chk.close(tag + " cell", c, D[tag + ".c"])
        chk.close(tag + " normaliser", n, D[tag + ".n"])
        chk.close(tag + " stabiliser", m, D[tag + ".m"])
    for tag in ["lstm", "lstm_big"]:
        y, c = lstm(D, tag)
        chk.close(tag + " outputs", y, D[tag + ".y"])
        chk.close(tag + " cell", c, D[tag + ".c"])
    chk.close("mingru outputs", mingru(D), D["mingru.y"])
    chk.close("delay conv outputs", conv(D), D["conv.y"])
    chk.exit()


if __name__ == "__main__":
    main()
