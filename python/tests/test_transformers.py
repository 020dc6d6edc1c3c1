"""River-named transformers: MinMaxScaler, Normalizer, FeatureHasher
(preprocessing), PolynomialExtender and TargetAgg (feature_extraction), their
properties, composition with |, and MinMaxScaler / StandardScaler against
scikit-learn's partial_fit scalers (skipped without scikit-learn)."""
import math
import random

import pytest

from irithyll import compose, feature_extraction, linear_model, preprocessing
from conftest import need_module


def _rows(n, seed=0):
    rng = random.Random(seed)
    return [{"a": rng.uniform(-5, 5), "b": rng.gauss(3, 2), "c": rng.random() * 100} for _ in range(n)]


def test_min_max_in_unit_interval_after_learning():
    s = preprocessing.MinMaxScaler()
    rows = _rows(500)
    for x in rows:
        s.learn_one(x)
    for x in rows:
        for v in s.transform_one(x).values():
            assert 0.0 <= v <= 1.0
    assert s.transform_one({"new": 3.0}) == {"new": 0.0}


def test_normalizer_unit_norm():
    for order in (1, 2, 3):
        n = preprocessing.Normalizer(order=order)
        for x in _rows(50, seed=order):
            out = n.transform_one(x)
            assert sum(abs(v) ** order for v in out.values()) ** (1 / order) == pytest.approx(1.0)
    assert preprocessing.Normalizer().transform_one({"a": 0.0}) == {"a": 0.0}


def test_feature_hasher_matches_the_cpp_hash_and_is_signed():
    # The C++ tests pin the same values (tests/preprocess/transformers_test.cpp).
    assert preprocessing.feature_hash("") == 0xE9D327596B869820
    assert preprocessing.feature_hash("colour=3") == 0x586ADF307AFB5CA8
    assert preprocessing.feature_hash("colour=3", 7) == 0x239F668902BB7D8C
    h = preprocessing.FeatureHasher(n_features=32)
    out = h.transform_one({"colour": "red", "size": 2.0})
    assert all(0 <= k < 32 for k in out)
    assert sum(abs(v) for v in out.values()) <= 3.0 + 1e-12
    assert h.transform_one({"colour": "red", "size": 2.0}) == out
    doubled = h.transform_one({"size": 4.0})
    single = h.transform_one({"size": 2.0})
    assert {k: 2 * v for k, v in single.items()} == doubled


def test_polynomial_extender_width_and_products():
    p = feature_extraction.PolynomialExtender(degree=2, include_bias=True)
    out = p.transform_one({"a": 2.0, "b": 3.0, "c": 5.0})
    assert len(out) == 1 + 3 + 6
    assert out["a*b"] == 6.0 and out["c*c"] == 25.0 and out["bias"] == 1
    inter = feature_extraction.PolynomialExtender(interaction_only=True).transform_one({"a": 2.0, "b": 3.0})
    assert inter == {"a": 2.0, "b": 3.0, "a*b": 6.0}


def test_target_agg_equals_the_smoothed_mean_and_does_not_leak():
    agg = feature_extraction.TargetAgg(by="colour", smoothing=2.0)
    rng = random.Random(3)
    groups, total, count = {}, 0.0, 0
    for _ in range(300):
        c = rng.choice("rgb")
        y = {"r": 1.0, "g": 5.0, "b": 9.0}[c] + rng.random()
        prior = total / count if count else 0.0
        n, s = groups.get(c, (0, 0.0))
        want = (s + 2.0 * prior) / (n + 2.0)
        assert agg.transform_one({"colour": c})[agg.feature_name] == pytest.approx(want)
        agg.learn_one({"colour": c}, y)
        groups[c] = (n + 1, s + y)
        total, count = total + y, count + 1
    assert agg.feature_name == "y_mean_by_colour"
    # In a pipeline the sample is transformed before the target is learned.
    pipe = feature_extraction.TargetAgg(by="k") | linear_model.LinearRegression()
    pipe.learn_one({"k": "a"}, 3.0)
    assert pipe["TargetAgg"].transform_one({"k": "a"})["y_mean_by_k"] == 3.0


def test_transformers_compose_with_a_learner():
    # The learner's feature set is fixed by its first sample, so the steps
    # give fixed keys: the noise column and the colour's target rate.
    model = ((compose.Select("noise") + feature_extraction.TargetAgg(by="colour", smoothing=1.0))
             | preprocessing.MinMaxScaler() | linear_model.LogisticRegression())
    rng = random.Random(1)
    correct = 0
    for i in range(3000):
        colour = rng.choice(["red", "green", "blue", "grey"])
        x = {"colour": colour, "noise": rng.random()}
        y = colour in ("red", "blue")
        if i >= 1000:
            correct += model.predict_one(x) == y
        model.learn_one(x, y)
    assert correct / 2000 > 0.95
    assert isinstance(model, compose.Pipeline)


def test_scalers_match_scikit_learn_partial_fit():
    sk = need_module("sklearn.preprocessing", "python3-sklearn")
    np = need_module("numpy", "python3-numpy")
    rows = _rows(400, seed=5)
    ours_mm, ours_std = preprocessing.MinMaxScaler(), preprocessing.StandardScaler()
    ref_mm, ref_std = sk.MinMaxScaler(), sk.StandardScaler()
    for x in rows:
        ours_mm.learn_one(x)
        ours_std.learn_one(x)
        arr = np.array([[x["a"], x["b"], x["c"]]])
        ref_mm.partial_fit(arr)
        ref_std.partial_fit(arr)
    for x in rows[:50]:
        arr = np.array([[x["a"], x["b"], x["c"]]])
        want_mm, want_std = ref_mm.transform(arr)[0], ref_std.transform(arr)[0]
        got_mm, got_std = ours_mm.transform_one(x), ours_std.transform_one(x)
        for i, k in enumerate("abc"):
            assert got_mm[k] == pytest.approx(want_mm[i], abs=1e-12)
            assert got_std[k] == pytest.approx(want_std[i], rel=1e-9, abs=1e-12)
