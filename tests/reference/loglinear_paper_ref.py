#!/usr/bin/python3
"""NumPy reference for the paper's log-linear variants, in materialised form.

Guo et al., "Log-Linear Attention" (ICLR 2026, arXiv 2506.04761) write every
model as O = (A (.) M) V with a T x T lower-triangular mask. Log-linear
attention multiplies the inner model's mask by the hierarchical mask M^H,
whose entry (t, s) is the level weight lambda_t^(l) of the Fenwick level l
that token s occupies in query t's partition of [0, t] (sec. 3.1): l = 0 for
s = t, else l = floor(log2(t xor s)) + 1, capped at L - 1 (levels past the
top fold into it). Built here from that definition as explicit T x T
matrices, O(T^2) memory, with no recurrence anywhere:

  Log-Linear Mamba-2 (sec. 3.3):        O = (Q K^T (.) M^S (.) M^H) diag(dt) V
      M^S[t, s] = prod_{r=s+1..t} alpha_r (1 on the diagonal), alpha = exp(-dt)
  Log-Linear Gated DeltaNet (sec. 3.3): O = (A (.) M^H) V,
      A = (Q Kh^T (.) M^S) (I + diag(beta) (Kh Kh^T (.) M^S, strictly lower))^-1 diag(beta)
      (the Gated DeltaNet attention matrix, beta folded in; Kh = unit keys)

Usage: loglinear_paper_ref.py TEST_BINARY [WORK_DIR]   (exit 77 = skipped)
The C++ recurrence (include/irithyll/nn/attention/fenwick_levels.hpp) must
match to 1e-10 for T up to 256 and L in {1, 2, 3, 5, 9}.
"""
import json
import os
import subprocess
import sys
import tempfile

from missing_tool import missing_tool

try:
    import numpy as np
except ImportError:
    missing_tool("numpy", "python3-numpy")

TOL = 1e-10


def softplus(z):
    return np.logaddexp(0.0, z)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def level_of(t, s, L):
    """Fenwick level of token s in query t's partition (s <= t)."""
    lvl = 0 if s == t else (t ^ s).bit_length()  # floor(log2(t xor s)) + 1
    return min(lvl, L - 1)


def hierarchical_mask(lam, L):
    """M^H[t, s] = lambda_t[level(t, s)] for s <= t (lam: T x L)."""
    T = lam.shape[0]
    M = np.zeros((T, T))
    for t in range(T):
        for s in range(t + 1):
            M[t, s] = lam[t, level_of(t, s, L)]
    return M


def decay_mask(alpha):
    """M^S[t, s] = prod_{r=s+1..t} alpha_r, via cumulative log-decays."""
    c = np.cumsum(np.log(alpha))
    D = np.exp(c[:, None] - c[None, :])
    return np.tril(D)


def unit_rows(K):
    n = np.linalg.norm(K, axis=1, keepdims=True)
    return np.where(n > 1e-12, K / np.where(n > 0, n, 1.0), 0.0)


def head_outputs(kind, h, X, xq, L, lambda_bias):
    """Materialised outputs (T x dv) of one head, plus the read-only query row."""
    K, V, Q = X @ h["Wk"].T, X @ h["Wv"].T, X @ h["Wq"].T
    r = X @ h["lambda"].T + lambda_bias
    lam = softplus(r) / softplus(r).sum(axis=1, keepdims=True)
    rq = h["lambda"] @ xq + lambda_bias
    lam_q = softplus(rq) / softplus(rq).sum()
    qx = h["Wq"] @ xq
    T = X.shape[0]
    MH = hierarchical_mask(lam, L)
    # The query reads the state after token T-1 with its own q and lambda:
    # a row like t = T-1's, with the levels and decays of t = T-1.
    mh_q = np.array([lam_q[level_of(T - 1, s, L)] for s in range(T)])
    if kind == "loglinear_mamba2":
        dt = softplus((X @ h["dt"].T)[:, 0])
        MS = decay_mask(np.exp(-dt))
        Vd = V * dt[:, None]
        O = ((Q @ K.T) * MS * MH) @ Vd
        oq = ((qx @ K.T) * MS[T - 1] * mh_q) @ Vd
        return O, oq
    alpha = sigmoid((X @ h["g"].T)[:, 0])
    beta = sigmoid((X @ h["beta"].T)[:, 0])
    Kh = unit_rows(K)
    MS = decay_mask(alpha)
    Tm = np.eye(T) + beta[:, None] * np.tril(Kh @ Kh.T * MS, -1)
    Tinv_b = np.linalg.solve(Tm, np.diag(beta))
    A = ((Q @ Kh.T) * MS) @ Tinv_b
    O = (A * MH) @ V
    aq = ((qx @ Kh.T) * MS[T - 1]) @ Tinv_b
    return O, (aq * mh_q) @ V


def layer_outputs(m):
    """Every step's layer output and the query output of one dumped mode."""
    X = np.array(m["inputs"])
    xq = np.array(m["query_x"])
    Wout = np.array(m["Wout"])
    L = int(m["max_levels"])
    per_head = [head_outputs(m["kind"], {k: np.array(v) for k, v in h.items()}, X, xq, L, m["lambda_bias"])
                for h in m["heads"]]
    O = np.concatenate([o for o, _ in per_head], axis=1)
    oq = np.concatenate([q for _, q in per_head])
    return np.tanh(O @ Wout.T), np.tanh(Wout @ oq)


def check(m):
    got, got_q = layer_outputs(m)
    want = np.array(m["outputs"])
    err = float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want))))
    err_q = float(np.max(np.abs(got_q - np.array(m["query_out"])) / np.maximum(1.0, np.abs(got_q))))
    return err, err_q


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "loglinear_paper_reference.json")
    env = dict(os.environ, IRITHYLL_LOGLINEAR_DUMP=path)
    subprocess.run([exe, "--gtest_filter=AttentionReference.DumpLogLinearPaperForNumpy"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    with open(path) as f:
        data = json.load(f)
    failures = 0
    for m in data["modes"]:
        err, err_q = check(m)
        ok = err <= TOL and err_q <= TOL
        failures += 0 if ok else 1
        print("%-26s %-11s L=%d T=%-3d max_rel_err=%.3e query_err=%.3e %s" %
              (m["kind"], m.get("layer", "multi_head"), int(m["max_levels"]), len(m["outputs"]), err, err_q,
               "ok" if ok else "MISMATCH"))
    print("%d cases checked, %d mismatched (tolerance %.0e)" % (len(data["modes"]), failures, TOL))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
