#!/usr/bin/python3
"""Independent NumPy reference for every streaming linear-attention mode.

Runs the C++ test binary to dump (weights, 64 inputs, outputs) per mode, then
recomputes each recurrence here from the published update equations and
compares to 1e-10. Written from the equations in the module banner of
src/nn/attention/multi_head.hpp and the papers, with NumPy
matrix algebra rather than loops, so a transposed state, a wrong gate or a
read-before-write slip in the C++ shows up as a mismatch.

Usage: attention_ref.py TEST_BINARY [WORK_DIR]   (exit 77 = skipped)
"""
import json
import os
import subprocess
import sys
import tempfile

from missing_tool import missing_tool
import loglinear_paper_ref

try:
    import numpy as np
except ImportError:
    missing_tool("numpy", "python3-numpy")

TOL = 1e-10


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def softplus(z):
    return np.log1p(np.exp(z))


def unit(k):
    n = np.linalg.norm(k)
    return k / n if n > 1e-12 else np.zeros_like(k)


def delta(S, kh, v, beta):
    # S + kh (beta (v - S^T kh))^T  ==  (I - beta kh kh^T) S + beta kh v^T
    I = np.eye(len(kh))
    return (I - beta * np.outer(kh, kh)) @ S + beta * np.outer(kh, v)


class Fenwick:
    """Binary-counter stack of level matrices with overflow folding into the top level."""

    def __init__(self, L, dk, dv):
        self.L = L
        self.S = [np.zeros((dk, dv)) for _ in range(L)]
        self.active = [False] * L

    def push(self, leaf):
        carry = leaf.copy()
        level = 0
        while level < self.L and self.active[level]:
            carry = carry + self.S[level]
            self.S[level] = np.zeros_like(carry)
            self.active[level] = False
            level += 1
        if level == self.L:
            level = self.L - 1
        self.S[level] = carry
        self.active[level] = True

    def read(self, lam, q):
        out = np.zeros(self.S[0].shape[1])
        for l in range(self.L):
            if self.active[l]:
                out += lam[l] * (self.S[l].T @ q)
        return out


def run_mode(m):
    kind = m["kind"]
    if kind in ("loglinear_mamba2", "loglinear_gated_deltanet"):
        # The paper's variants: checked against their materialised masked form.
        return loglinear_paper_ref.check(m)
    dk, dv = int(m["d_key"]), int(m["d_value"])
    heads = [{k: np.array(v) for k, v in h.items()} for h in m["heads"]]
    Wout = np.array(m["Wout"])
    L = int(m["max_levels"])
    bounded = kind in ("deltanet", "gated_deltanet", "deltaproduct", "rwkv7", "hgrn2", "loglinear")
    if kind == "hawk":
        states = [np.zeros(dv) for _ in heads]
    elif kind == "loglinear":
        states = [Fenwick(L, dk, dv) for _ in heads]
    else:
        states = [np.zeros((dk, dv)) for _ in heads]

    def lam_of(h, x):
        r = h["lambda"] @ x + m["lambda_bias"]
        sp = softplus(r)
        return sp / sp.sum()

    def head_out(hi, x, commit=True):
        h = heads[hi]
        k, v, q = h["Wk"] @ x, h["Wv"] @ x, h["Wq"] @ x
        S = states[hi]
        if kind == "retnet":
            S = m["gamma"] * S + np.outer(k, v)
        elif kind == "hawk":
            S = sigmoid(h["a"] @ x) * S + sigmoid(h["b"] @ x) * v
            states[hi] = S
            return S
        elif kind == "gla":
            S = sigmoid(h["g"] @ x)[0] * S + np.outer(k, v)
        elif kind == "gla_vector":
            S = np.diag(sigmoid(h["a"] @ x)) @ S + np.outer(k, v)
        elif kind == "deltanet":
            S = delta(S, unit(k), v, 1.0)
        elif kind == "gated_deltanet":
            beta = sigmoid(h["beta"] @ x)[0] if m["beta_per_token"] else m["beta_scale"]
            S = delta(sigmoid(h["g"] @ x)[0] * S, unit(k), v, beta)
        elif kind == "rwkv":
            decay = np.exp(-(m["initial_decay"] + softplus(h["w"] @ x)[0]))
            S = decay * S + np.outer(np.exp(np.minimum(k, 20.0)), v)
        elif kind == "mlstm":
            f, i = sigmoid(h["f"] @ x)[0], sigmoid(h["i"] @ x)[0]
            S = f * S + i * np.outer(k, v)
        elif kind == "deltaproduct":
            bmax = 2.0 if m["reflections"] else 1.0
            S = sigmoid(h["g"] @ x)[0] * S
            S = delta(S, unit(k), v, bmax * sigmoid(h["beta0"] @ x)[0])
            for j in range(1, int(m["n_compositions"])):
                S = delta(S, unit(h["k%d" % j] @ x), h["v%d" % j] @ x, bmax * sigmoid(h["beta%d" % j] @ x)[0])
        elif kind == "rwkv7":
            w = np.exp(np.log(0.6) * sigmoid(h["w"] @ x))  # in (0.6, 1)
            a = sigmoid(h["a"] @ x)
            kh = unit(k)
            ktilde = k * (1.0 + m["rwkv7_removal"] * (a - 1.0))
            D = np.diag(w) @ S
            if m.get("rwkv7_upstream", 0.0):
                # Upstream order (RWKV-7 paper, eq. for S_t): S_{t-1} (diag(w) - kh^T (a kh)) + v k~^T,
                # i.e. the removal reads the un-decayed state.
                S = D - np.outer(a * kh, S.T @ kh) + np.outer(ktilde, v)
            else:
                S = D - np.outer(a * kh, D.T @ kh) + np.outer(ktilde, v)
        elif kind == "hgrn2":
            lb = m["lower_bound"]
            S = np.diag(lb + (1 - lb) * sigmoid(h["a"] @ x)) @ S + np.outer(k, v)
        elif kind == "loglinear":
            delta_inner = m["inner"] in ("deltanet", "gated_deltanet", "deltaproduct", "rwkv7")
            leaf_k = unit(k) if delta_inner else k
            S.push(np.outer(leaf_k, v))  # read after the push
            return S.read(lam_of(h, x), q)
        else:
            raise ValueError(kind)
        states[hi] = S
        return S.T @ q

    def query(hi, x):
        h = heads[hi]
        q = h["Wq"] @ x
        S = states[hi]
        if kind == "hawk":
            return S
        if kind == "loglinear":
            return S.read(lam_of(h, x), q)
        return S.T @ q

    def finish(concat):
        o = Wout @ concat
        return np.tanh(o) if bounded else o

    worst = 0.0
    for x, want in zip(m["inputs"], m["outputs"]):
        x = np.array(x)
        got = finish(np.concatenate([head_out(hi, x) for hi in range(len(heads))]))
        want = np.array(want)
        worst = max(worst, float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))))
    xq = np.array(m["query_x"])
    got = finish(np.concatenate([query(hi, xq) for hi in range(len(heads))]))
    worst_q = float(np.max(np.abs(got - np.array(m["query_out"])) / np.maximum(1.0, np.abs(got))))
    return worst, worst_q


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "attention_reference.json")
    env = dict(os.environ, IRITHYLL_ATTENTION_DUMP=path)
    subprocess.run([exe, "--gtest_filter=AttentionReference.DumpForNumpy"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    with open(path) as f:
        data = json.load(f)
    failures = 0
    for m in data["modes"]:
        worst, worst_q = run_mode(m)
        label = m["kind"] + (":" + m["inner"] if m["kind"] == "loglinear" else "")
        label += ":upstream" if m.get("rwkv7_upstream", 0.0) else ""
        ok = worst <= TOL and worst_q <= TOL and len(m["outputs"]) == 64
        failures += 0 if ok else 1
        print("%-28s steps=%d max_rel_err=%.3e query_err=%.3e %s" %
              (label, len(m["outputs"]), worst, worst_q, "ok" if ok else "MISMATCH"))
    print("%d modes checked, %d mismatched (tolerance %.0e)" % (len(data["modes"]), failures, TOL))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
