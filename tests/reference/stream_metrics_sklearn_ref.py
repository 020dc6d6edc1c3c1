#!/usr/bin/env python3
"""The whole-stream metrics of `irithyll eval --json` against scikit-learn and
NumPy, recomputed from the per-row predictions the same run writes
(`--predictions`):

  classification (two classes, labels with runs so the no-change baseline is
  not trivial): balanced_accuracy (balanced_accuracy_score), roc_auc
  (roc_auc_score on the class-1 probability), the no-change and prequential
  majority-class baselines (a direct loop), kappa_t and kappa_m from them;
  regression: mape (100 x mean_absolute_percentage_error, no zero targets)
  and smape (NumPy). All to 1e-9 (the predictions are printed in their
  shortest round-trip form, so both sides see the same numbers) except
  roc_auc (1e-3, see below).

usage: stream_metrics_sklearn_ref.py PATH/TO/irithyll WORKDIR   (exit 77 when NumPy or scikit-learn is missing)
"""
import json
import os
import subprocess
import sys

from missing_tool import missing_tool

try:
    import numpy as np
except ImportError:
    missing_tool("numpy", "python3-numpy")
try:
    from sklearn.metrics import balanced_accuracy_score, mean_absolute_percentage_error, roc_auc_score
except ImportError:
    missing_tool("scikit-learn", "python3-sklearn")

TOL = 1e-9


def run(cli, args):
    out = subprocess.run([cli] + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"irithyll {' '.join(args)} failed: {out.stderr}")
    return json.loads(out.stdout)


def close(name, got, want, failures, tol=TOL):
    if got is None or abs(got - want) > tol * max(1.0, abs(want)):
        failures.append(f"{name}: irithyll {got}, reference {want}")


def classification(cli, work, failures):
    rng = np.random.default_rng(7)
    n = 4000
    X = rng.normal(size=(n, 3))
    # Labels in runs (a sticky hidden state) plus a feature signal, 30% ones.
    state = np.zeros(n, dtype=int)
    for t in range(1, n):
        state[t] = state[t - 1] if rng.random() < 0.9 else int(rng.random() < 0.3)
    y = ((state + (X[:, 0] > 1.2)) > 0).astype(int)
    X[:, 1] += 1.5 * y
    path = os.path.join(work, "cls.csv")
    with open(path, "w") as f:
        f.write("a,b,c,y\n")
        for row, label in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{label}\n")
    preds = os.path.join(work, "cls_pred.csv")
    report = run(cli, ["eval", "--data", path, "--model", "hoeffding_tree", "--classes", "0,1", "--json",
                       "--quiet", "--predictions", preds])
    pred, score = [], []
    for line in open(preds):
        name, p = line.strip().split(",")
        pred.append(int(name))
        score.append(float(p) if name == "1" else 1.0 - float(p))
    pred, score = np.array(pred), np.array(score)
    assert len(pred) == n, f"{len(pred)} predictions for {n} rows"
    close("balanced_accuracy", report["balanced_accuracy"], balanced_accuracy_score(y, pred), failures)
    # A row predicted 0 prints p(0), so its class-1 score here is 1 - p(0),
    # which can differ from the model's p(1) in the last bit and split or
    # merge ties: the AUC agrees to 1e-3, not to the last digit.
    close("roc_auc", report["roc_auc"], roc_auc_score(y, score), failures, 1e-3)
    acc = float(np.mean(pred == y))
    no_change = float(np.sum(y[1:] == y[:-1])) / n
    counts, majority_hits = [0, 0], 0
    for t in range(n):
        if t > 0:
            majority = 0 if counts[0] >= counts[1] else 1
            majority_hits += int(y[t] == majority)
        counts[y[t]] += 1
    majority_acc = majority_hits / n
    close("no_change_accuracy", report["no_change_accuracy"], no_change, failures)
    close("majority_accuracy", report["majority_accuracy"], majority_acc, failures)
    close("kappa_t", report["kappa_t"], (acc - no_change) / (1 - no_change), failures)
    close("kappa_m", report["kappa_m"], (acc - majority_acc) / (1 - majority_acc), failures)


def regression(cli, work, failures):
    rng = np.random.default_rng(11)
    n = 3000
    X = rng.normal(size=(n, 4))
    y = 5.0 + X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(scale=0.5, size=n)
    path = os.path.join(work, "reg.csv")
    with open(path, "w") as f:
        f.write("a,b,c,d,y\n")
        for row, target in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{float(target)!r}\n")
    preds = os.path.join(work, "reg_pred.csv")
    report = run(cli, ["eval", "--data", path, "--model", "linear_regression", "--no-target-guard", "--json",
                       "--quiet", "--predictions", preds])
    p = np.array([float(line) for line in open(preds)])
    assert len(p) == n and np.all(y != 0)
    close("mape", report["mape"], 100.0 * mean_absolute_percentage_error(y, p), failures)
    close("smape", report["smape"], 100.0 * float(np.mean(2.0 * np.abs(y - p) / (np.abs(y) + np.abs(p)))), failures)


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    failures = []
    classification(cli, work, failures)
    regression(cli, work, failures)
    if failures:
        sys.exit("stream metrics differ from the reference:\n  " + "\n  ".join(failures))
    print("stream metrics match scikit-learn / NumPy")


if __name__ == "__main__":
    main()
