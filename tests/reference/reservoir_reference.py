#!/usr/bin/env python3
"""NumPy reference for the cycle reservoir and the NG-RC learner.

Runs tests/reference/reservoir_dump.cpp, recomputes the 64-step reservoir
trajectory from the printed weights and inputs (x_i <- (1-a) x_i + a tanh(
w_cyc[i-1] x_{i-1} + W_in[i] u + b_i), neuron 0 reading neuron n-1), and the
NG-RC one-step predictions from the inputs alone (its own delay taps,
combinations-with-replacement monomials and an exponentially weighted RLS),
and compares. Exit 77 when NumPy is missing.
Usage: reservoir_reference.py PATH_TO_reservoir_dump
"""
import itertools
import json
import subprocess
import sys

from missing_tool import missing_tool

try:
    import numpy as np
except ImportError:
    missing_tool("numpy", "python3-numpy")


def check_esn(d):
    w_cyc, w_in, b = np.array(d["w_cyc"]), np.array(d["w_in"]), np.array(d["bias"])
    leak = d["leak"]
    x = np.zeros(len(w_cyc))
    worst = 0.0
    for u, want in zip(d["u"], d["states"]):
        x = (1 - leak) * x + leak * np.tanh(np.roll(w_cyc * x, 1) + w_in @ np.array(u) + b)
        worst = max(worst, float(np.max(np.abs(x - np.array(want)))))
    # Tolerance: the AVX2 tanh is within ~3e-15 of libm; 64 contracting steps keep it there.
    if worst > 1e-12:
        print(f"esn: max state difference {worst:.3e} > 1e-12")
        return False
    print(f"esn: 64 steps, max state difference {worst:.3e}")
    return True


def check_ngrc(d):
    k, s = d["k"], d["s"]
    xs = [np.array(v) for v in d["x"]]
    dim = len(xs[0])
    m_lin = k * dim
    terms = list(itertools.combinations_with_replacement(range(m_lin), 2))
    n_feat = 1 + m_lin + len(terms)
    lam, delta = d["lambda"], d["delta"]
    w = np.zeros(n_feat)
    P = delta * np.eye(n_feat)
    worst = 0.0
    for t, (x, y) in enumerate(zip(xs, d["y"])):
        taps = [xs[t - i * s] if t - i * s >= 0 else np.zeros(dim) for i in range(k)]
        lin = np.concatenate(taps)
        feat = np.concatenate([[1.0], lin, [lin[i] * lin[j] for i, j in terms]])
        pred = float(w @ feat)
        worst = max(worst, abs(pred - d["pred"][t]) / (1.0 + abs(pred)))
        if t >= (k - 1) * s:  # trained once every tap exists
            px = P @ feat
            denom = lam + feat @ px
            w = w + px * (y - w @ feat) / denom
            P = (P - np.outer(px, px) / denom) / lam
    if worst > 1e-8:
        print(f"ngrc: max relative prediction difference {worst:.3e} > 1e-8")
        return False
    print(f"ngrc: 64 steps, {n_feat} features, max relative prediction difference {worst:.3e}")
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = json.loads(subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout)
    ok = check_esn(d["esn"]) and check_ngrc(d["ngrc"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
