#!/usr/bin/env python3
"""irithyll against scikit-learn, one sample at a time, measured in one run.

The streaming use of scikit-learn is `partial_fit` on one row after
`predict` on it; irithyll's is `predict_one` then `learn_one` on a dict.
Both run in this one process over the same rows, in interleaved pairs
(A B A B ...), timed with thread CPU time; the figure is the median over
the pairs of microseconds per sample (predict + learn) and the prequential
score of each side.

    PYTHONPATH=build/python /usr/bin/python3 bench/anchors_sklearn.py [--rows N] [--pairs P] [--csv OUT]

Needs scikit-learn (Debian: python3-sklearn); without it, it says so and
exits 0.
"""
import argparse
import statistics
import sys
import time
import warnings

try:
    import numpy as np
    from sklearn import cluster as sk_cluster
    from sklearn import linear_model as sk_linear
    from sklearn import naive_bayes as sk_nb
except ImportError as exc:  # the anchor is optional
    print(f"anchors_sklearn: SKIP: scikit-learn/NumPy not importable ({exc}); Debian: python3-sklearn")
    sys.exit(0)

import irithyll.cluster
import irithyll.linear_model
import irithyll.naive_bayes


def classification_rows(n, d, seed):
    """A linearly separable concept with 10% label noise, d features in [0, 1)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    w = np.linspace(1.0, -1.0, d)
    y = (X @ w > 0.0).astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    return X, y


def blob_rows(n, d, k, seed):
    rng = np.random.default_rng(seed)
    centres = rng.random((k, d)) * 10.0
    labels = rng.integers(0, k, n)
    return centres[labels] + rng.normal(0.0, 0.5, (n, d))


def run_irithyll_classifier(make, X, y):
    model = make()
    names = [f"x{j}" for j in range(X.shape[1])]
    rows = [dict(zip(names, r)) for r in X.tolist()]
    labels = y.tolist()
    correct = 0
    t0 = time.thread_time()
    for x, t in zip(rows, labels):
        correct += model.predict_one(x) == t
        model.learn_one(x, t)
    return time.thread_time() - t0, correct / len(labels)


def run_sklearn_classifier(make, X, y):
    model = make()
    classes = np.array([0, 1])
    correct = 0
    t0 = time.thread_time()
    model.partial_fit(X[:1], y[:1], classes=classes)  # scikit-learn cannot predict before its first fit
    for i in range(1, len(y)):
        row = X[i:i + 1]
        correct += int(model.predict(row)[0] == y[i])
        model.partial_fit(row, y[i:i + 1])
    return time.thread_time() - t0, correct / (len(y) - 1)


def run_irithyll_kmeans(make, X):
    model = make()
    names = [f"x{j}" for j in range(X.shape[1])]
    rows = [dict(zip(names, r)) for r in X.tolist()]
    t0 = time.thread_time()
    for x in rows:
        model.learn_one(x)
    return time.thread_time() - t0, float("nan")


def run_sklearn_kmeans(make, X):
    model = make()
    t0 = time.thread_time()
    model.partial_fit(X[:5])  # its first batch must hold at least n_clusters rows
    for i in range(5, len(X)):
        model.partial_fit(X[i:i + 1])
    return time.thread_time() - t0, float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--csv", help="append one line per workload to this file")
    args = ap.parse_args()
    # GaussianNB divides by a zero variance after its first row; its answer is its own.
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    d = 10
    X, y = classification_rows(args.rows, d, seed=7)
    B = blob_rows(args.rows, d, 5, seed=7)

    cases = [
        ("logistic regression", "SGDClassifier(log_loss)",
         lambda: run_irithyll_classifier(lambda: irithyll.linear_model.LogisticRegression(), X, y),
         lambda: run_sklearn_classifier(lambda: sk_linear.SGDClassifier(loss="log_loss", random_state=0), X, y)),
        ("perceptron", "Perceptron",
         lambda: run_irithyll_classifier(lambda: irithyll.linear_model.Perceptron(), X, y),
         lambda: run_sklearn_classifier(lambda: sk_linear.Perceptron(random_state=0), X, y)),
        ("passive-aggressive", "PassiveAggressiveClassifier",
         lambda: run_irithyll_classifier(lambda: irithyll.linear_model.PAClassifier(), X, y),
         lambda: run_sklearn_classifier(lambda: sk_linear.PassiveAggressiveClassifier(random_state=0), X, y)),
        ("Gaussian naive Bayes", "GaussianNB",
         lambda: run_irithyll_classifier(lambda: irithyll.naive_bayes.GaussianNB(), X, y),
         lambda: run_sklearn_classifier(lambda: sk_nb.GaussianNB(), X, y)),
        ("k-means 5 clusters", "MiniBatchKMeans",
         lambda: run_irithyll_kmeans(lambda: irithyll.cluster.KMeans(n_clusters=5, seed=1), B),
         lambda: run_sklearn_kmeans(lambda: sk_cluster.MiniBatchKMeans(n_clusters=5, random_state=0, n_init=1), B)),
    ]
    print(f"{'workload':24s} {'irithyll us':>12s} {'sklearn us':>11s} {'speed-up':>9s} {'acc ours':>9s} {'acc sk':>7s}")
    for name, anchor, ours, theirs in cases:
        t_ours, t_theirs, acc_ours, acc_theirs = [], [], 0.0, 0.0
        for _ in range(args.pairs):
            t, acc_ours = ours()
            t_ours.append(t)
            t, acc_theirs = theirs()
            t_theirs.append(t)
        us_ours = statistics.median(t_ours) / args.rows * 1e6
        us_theirs = statistics.median(t_theirs) / args.rows * 1e6
        print(f"{name:24s} {us_ours:12.2f} {us_theirs:11.2f} {us_theirs / us_ours:8.1f}x {acc_ours:9.4f} {acc_theirs:7.4f}")
        if args.csv:
            with open(args.csv, "a", encoding="utf-8") as out:
                out.write(f"{name} (Python; anchor scikit-learn {anchor}),us/sample,{us_ours:.3f},"
                          f"scikit-learn,{us_theirs:.3f}\n")


if __name__ == "__main__":
    main()
