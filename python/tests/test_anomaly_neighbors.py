"""irithyll.anomaly.HalfSpaceTrees and irithyll.neighbors (kNN) from Python."""
import math
import pickle
import random

import pytest

from irithyll import anomaly, neighbors


def planted(n, seed, dims=6, rate=0.01):
    """Three Gaussian clusters in `dims` dimensions; with probability `rate`
    a point uniform in [-10, 10]^dims instead (label 1)."""
    rng = random.Random(seed)
    centres = [[rng.uniform(-5, 5) for _ in range(dims)] for _ in range(3)]
    for _ in range(n):
        if rng.random() < rate:
            yield {f"f{j}": rng.uniform(-10, 10) for j in range(dims)}, 1
        else:
            c = rng.choice(centres)
            yield {f"f{j}": rng.gauss(m, 1.0) for j, m in enumerate(c)}, 0


def auc(scores, labels):
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))


def test_hst_ranks_planted_anomalies_above_rivers_figure():
    # River documents ROC AUC about 0.91 for HalfSpaceTrees on its credit-card
    # example; the planted stream's anomalies are far easier (C++ tests: lowest
    # 0.974 over 20 seeds), so 0.91 here fails only on a broken detector.
    hst = anomaly.HalfSpaceTrees(seed=3)
    scores, labels = [], []
    for i, (x, y) in enumerate(planted(6000, 3)):
        s = hst.score_one(x)
        hst.learn_one(x)
        if i >= 250:
            scores.append(s)
            labels.append(y)
    assert 0.0 <= min(scores) and max(scores) <= 1.0
    assert auc(scores, labels) >= 0.91


def test_hst_pickle_resumes_bit_identically_and_refuses_bad_rows():
    a = anomaly.HalfSpaceTrees(window_size=50, seed=1)
    rows = [x for x, _ in planted(400, 5)]
    for x in rows[:130]:
        a.learn_one(x)
    b = pickle.loads(pickle.dumps(a))
    for x in rows[130:]:
        assert a.score_one(x) == b.score_one(x)
        a.learn_one(x)
        b.learn_one(x)
    missing = dict(rows[0])
    del missing["f2"]
    assert math.isfinite(a.score_one(missing))
    a.learn_one({**rows[0], "f0": float("nan")})
    with pytest.raises(ValueError):
        a.learn_one({**rows[0], "new": 1.0})
    with pytest.raises(ValueError):
        a.score_one([1.0, 2.0])
    with pytest.raises(ValueError):
        anomaly.HalfSpaceTrees(n_trees=0)
    assert "HalfSpaceTrees(n_trees=10" in repr(anomaly.HalfSpaceTrees())


def test_knn_classifier_and_regressor_learn():
    clf = neighbors.KNNClassifier(n_neighbors=3, window_size=200)
    reg = neighbors.KNNRegressor(weighting="uniform", standardize=False)
    rng = random.Random(0)
    hits = 0
    for i in range(600):
        x = {"a": rng.gauss(0, 1), "b": rng.gauss(0, 1)}
        y = "pos" if x["a"] + x["b"] > 0 else "neg"
        if i >= 100:
            hits += clf.predict_one(x) == y
        clf.learn_one(x, y)
        reg.learn_one(x, 2 * x["a"])
    assert hits / 500 > 0.85
    assert abs(reg.predict_one({"a": 1.0, "b": 0.0}) - 2.0) < 0.6
