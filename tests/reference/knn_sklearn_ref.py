#!/usr/bin/env python3
"""kNN against scikit-learn: `irithyll eval --model knn` (standardisation off)
run prequentially on a generated stream must predict, at every row, what
scikit-learn's KNeighborsClassifier / KNeighborsRegressor (algorithm="brute")
predicts when refitted on the same window of past rows.

Features are continuous random draws, so no two stored samples sit at the
same distance from a query (the tie rules of the two libraries differ and
are not compared). Checked: both weightings (uniform, distance), Minkowski
p = 2 and p = 1, windows 1 (degenerate), 40 and larger than the stream.
Classification: the predicted class and its probability (to 1e-9) wherever
scikit-learn's top probability is unique; regression: the value to 1e-9
(relative). Row 0 (nothing stored) is not compared.

usage: knn_sklearn_ref.py PATH/TO/irithyll WORKDIR   (exit 77 when NumPy or scikit-learn is missing)
"""
import os
import subprocess
import sys

from missing_tool import missing_tool

try:
    import numpy as np
except ImportError:
    missing_tool("numpy", "python3-numpy")
try:
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
except ImportError:
    missing_tool("scikit-learn", "python3-sklearn")

TOL = 1e-9
CLASSES = ["a", "b", "c"]


def make_data(path, n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * np.array([1.0, 3.0, 0.5, 2.0][:d])
    labels = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n) > 0).astype(int) + (X[:, 2] > 0.6)
    target = X[:, 0] * 2.0 - X[:, 1] + rng.normal(scale=0.1, size=n)
    with open(path, "w") as f:
        f.write(",".join(f"f{j}" for j in range(d)) + ",cls,y\n")
        for i in range(n):
            f.write(",".join(repr(float(v)) for v in X[i]) + f",{CLASSES[labels[i]]},{target[i]!r}\n")
    return X, np.array([CLASSES[c] for c in labels]), target


def run_cli(cli, data, out, task, target, drop, k, window, weighting, p):
    cmd = [cli, "eval", "--data", data, "--target", target, "--drop", drop, "--task", task, "--model", "knn",
           "--n-neighbors", str(k), "--window-size", str(window), "--weighting", weighting, "--p", str(p),
           "--standardize", "off", "--predictions", out, "--quiet"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return [line.strip().split(",") for line in f if line.strip()]


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "knn_stream.csv")
    n = 120
    X, labels, target = make_data(data, n, 4, 7)
    failures = 0
    compared = 0
    for weighting, p, k, window in (("uniform", 2, 5, 40), ("distance", 2, 5, 40), ("distance", 1, 3, 1),
                                    ("uniform", 1, 7, 1000)):
        if True:
            if True:
                rows = run_cli(cli, data, os.path.join(work, "cls.txt"), "classification", "cls", "y", k, window,
                               weighting, p)
                vals = run_cli(cli, data, os.path.join(work, "reg.txt"), "regression", "y", "cls", k, window,
                               weighting, p)
                assert len(rows) == n and len(vals) == n, (len(rows), len(vals))
                for t in range(1, n):
                    lo = max(0, t - window)
                    Xw, lw, yw = X[lo:t], labels[lo:t], target[lo:t]
                    kk = min(k, len(Xw))
                    clf = KNeighborsClassifier(n_neighbors=kk, weights=weighting, p=p, algorithm="brute").fit(Xw, lw)
                    proba = clf.predict_proba(X[t:t + 1])[0]
                    order = np.sort(proba)
                    name, prob = rows[t][0], float(rows[t][1])
                    if abs(prob - order[-1]) > TOL:
                        failures += 1
                        print(f"cls {weighting} p={p} k={k} W={window} row {t}: proba {prob} vs {order[-1]}")
                    elif len(order) == 1 or order[-1] - order[-2] > TOL:
                        expect = clf.classes_[int(np.argmax(proba))]
                        if name != expect:
                            failures += 1
                            print(f"cls {weighting} p={p} k={k} W={window} row {t}: {name} vs {expect}")
                    reg = KNeighborsRegressor(n_neighbors=kk, weights=weighting, p=p, algorithm="brute").fit(Xw, yw)
                    want = float(reg.predict(X[t:t + 1])[0])
                    got = float(vals[t][0])
                    if abs(got - want) > TOL * max(1.0, abs(want)):
                        failures += 1
                        print(f"reg {weighting} p={p} k={k} W={window} row {t}: {got} vs {want}")
                    compared += 2
    print(f"knn vs scikit-learn: {compared} predictions compared, {failures} differ")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
