#!/usr/bin/env python3
"""Prequential references for the linear models and naive Bayes, through the
CLI (`irithyll eval --predictions`), on the same generated streams:

  gaussian_nb, multinomial_nb, bernoulli_nb   scikit-learn's partial_fit, one
      sample at a time (GaussianNB: scikit-learn's partial_fit takes epsilon
      from the variance of each batch, 0 for one sample, while irithyll adds
      var_smoothing * the largest feature variance seen, 1e-9 relative: the
      probabilities agree to 1e-6);
  passive_aggressive   PassiveAggressiveClassifier / Regressor (C = 1, PA-I,
      fit_intercept, no shuffling) on unstandardised features;
  logistic_regression  a 20-line NumPy SGD (no standardisation, constant rate).

Predicted classes must agree wherever the reference's top two classes are not
within 1e-6 of a tie; probabilities and regression values to the stated
tolerances. usage: linear_bayes_sklearn_ref.py PATH/TO/irithyll
(exit 77, skipped, when NumPy or scikit-learn is missing; exit 1 in CI).
"""
import os
import subprocess
import sys
import tempfile
import warnings

from missing_tool import missing_tool

try:
    import numpy as np
except ImportError:
    missing_tool("NumPy", "python3-numpy")
try:
    from sklearn.linear_model import PassiveAggressiveClassifier, PassiveAggressiveRegressor
    from sklearn.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB
except ImportError:
    missing_tool("scikit-learn", "python3-sklearn")

CLI = sys.argv[1]
N = 1500
failures = []


def write_csv(path, X, y):
    with open(path, "w") as f:
        f.write(",".join(f"f{j}" for j in range(X.shape[1])) + ",y\n")
        for row, target in zip(X, y):
            label = str(int(target)) if isinstance(target, (int, np.integer)) else repr(float(target))
            f.write(",".join(repr(float(v)) for v in row) + "," + label + "\n")


def run_cli(tmp, X, y, model, options, classes=None):
    data, preds = os.path.join(tmp, "data.csv"), os.path.join(tmp, "pred.txt")
    write_csv(data, X, y)
    cmd = [CLI, "eval", "--data", data, "--model", model, "--predictions", preds, "--quiet"]
    cmd += ["--task", "classification", "--classes", ",".join(classes)] if classes else ["--task", "regression"]
    subprocess.run(cmd + options, check=True, stdout=subprocess.DEVNULL)
    rows = [line.strip().split(",") for line in open(preds)]
    assert len(rows) == len(y), f"{model}: {len(rows)} predictions for {len(y)} rows"
    return rows


def check_classes(name, rows, ref_proba, start, proba_tol):
    """rows: (label, its probability); ref_proba[i]: the reference's class probabilities."""
    checked = 0
    for i in range(start, len(rows)):
        ref = ref_proba[i]
        order = np.argsort(-ref)
        if ref[order[0]] - ref[order[1]] < 1e-6:
            continue  # a near-tie: either answer is right
        label, p = int(rows[i][0]), float(rows[i][1])
        if label != order[0] or (proba_tol is not None and abs(p - ref[order[0]]) > proba_tol):
            failures.append(f"{name} row {i}: irithyll {label} ({p}), reference {order[0]} ({ref[order[0]]})")
            return
        checked += 1
    if checked < (len(rows) - start) * 0.9:
        failures.append(f"{name}: only {checked} rows compared")
    print(f"{name}: {checked} predictions agree")


def prequential(model, X, y, classes, proba):
    out = [None] * len(y)
    fitted = False
    for i in range(len(y)):
        if fitted:
            out[i] = model.predict_proba(X[i:i + 1])[0] if proba else model.decision_function(X[i:i + 1])[0]
        model.partial_fit(X[i:i + 1], y[i:i + 1], classes=classes)
        fitted = True
    return out


def decision_to_scores(d, k):
    """PA decision values -> per-class scores whose arg-max is the prediction."""
    d = np.atleast_1d(d)
    return np.array([-d[0], d[0]]) if k == 2 else d


rng = np.random.default_rng(7)
warnings.filterwarnings("ignore")
with tempfile.TemporaryDirectory() as tmp:
    # Three Gaussian classes (gaussian_nb, bernoulli_nb, PA one-vs-rest).
    y3 = rng.integers(0, 3, N)
    X3 = rng.normal(size=(N, 4)) + np.stack([y3, -y3 * 0.5, y3 * 0.2, 0 * y3], axis=1)
    labels3 = ["0", "1", "2"]
    # Counts for multinomial_nb.
    Xc = rng.poisson(lam=1.0 + 2.0 * (np.arange(5)[None, :] == (y3[:, None] + 1)), size=(N, 5)).astype(float)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = prequential(GaussianNB(), X3, y3, [0, 1, 2], True)
    seen = np.zeros(3)
    start = 0
    for i, c in enumerate(y3):  # every class has two samples (a variance) from here on
        seen[c] += 1
        if seen.min() >= 2:
            start = i + 1
            break
    rows = run_cli(tmp, X3, y3, "gaussian_nb", [], labels3)
    check_classes("gaussian_nb", rows, ref, start, 1e-6)

    ref = prequential(MultinomialNB(alpha=1.0), Xc, y3, [0, 1, 2], True)
    rows = run_cli(tmp, Xc, y3, "multinomial_nb", ["--alpha", "1"], labels3)
    check_classes("multinomial_nb", rows, ref, 1, 1e-9)

    ref = prequential(BernoulliNB(alpha=1.0, binarize=0.0), X3, y3, [0, 1, 2], True)
    rows = run_cli(tmp, X3, y3, "bernoulli_nb", ["--alpha", "1", "--binarize", "0"], labels3)
    check_classes("bernoulli_nb", rows, ref, 1, 1e-9)

    pa_options = ["--mode", "pa-i", "--c", "1", "--standardize", "off"]
    for k in (2, 3):
        yk = y3 % k if k == 2 else y3
        pa = PassiveAggressiveClassifier(C=1.0, fit_intercept=True, shuffle=False, loss="hinge")
        ref = prequential(pa, X3, yk, list(range(k)), False)
        scores = [None if d is None else decision_to_scores(d, k) for d in ref]
        rows = run_cli(tmp, X3, yk, "passive_aggressive", pa_options, [str(c) for c in range(k)])
        check_classes(f"passive_aggressive ({k} classes)", rows, scores, 1, None)

    yr = X3 @ np.array([1.0, -2.0, 0.5, 0.0]) + 0.3 * rng.normal(size=N)
    par = PassiveAggressiveRegressor(C=1.0, epsilon=0.1, fit_intercept=True, shuffle=False)
    ref = [0.0] * N
    for i in range(N):
        if i:
            ref[i] = par.predict(X3[i:i + 1])[0]
        par.partial_fit(X3[i:i + 1], yr[i:i + 1])
    rows = run_cli(tmp, X3, yr, "passive_aggressive", pa_options + ["--epsilon", "0.1"])
    worst = max(abs(float(r[0]) - p) / (1 + abs(p)) for r, p in zip(rows, ref))
    print(f"passive_aggressive (regression): largest relative difference {worst:.2e}")
    if worst > 1e-9:
        failures.append(f"passive_aggressive regression differs by {worst}")

    # Logistic regression, plain SGD: the NumPy reference.
    yb = (X3[:, 0] - X3[:, 2] + 0.5 * rng.normal(size=N) > 0.5).astype(int)
    lr, lr_b = 0.05, 0.02
    w, b = np.zeros(X3.shape[1]), 0.0
    p_ref = np.empty(N)
    for i in range(N):
        p_ref[i] = 1.0 / (1.0 + np.exp(-(X3[i] @ w + b)))
        g = p_ref[i] - yb[i]
        w -= lr * g * X3[i]
        b -= lr_b * g
    rows = run_cli(tmp, X3, yb, "logistic_regression",
                   ["--standardize", "off", "--learning-rate", str(lr), "--intercept-lr", str(lr_b)], ["0", "1"])
    p_cli = np.array([float(p) if lab == "1" else 1.0 - float(p) for lab, p in rows])
    worst = np.max(np.abs(p_cli - p_ref))
    print(f"logistic_regression: largest probability difference {worst:.2e}")
    if worst > 1e-12:
        failures.append(f"logistic_regression differs from NumPy by {worst}")

if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print("all references agree")
