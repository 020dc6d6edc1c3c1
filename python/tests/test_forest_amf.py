"""Aggregated Mondrian forest under River's names: forest.AMFClassifier and
forest.AMFRegressor (catalogue model 'mondrian_forest')."""
import math
import random

from irithyll import forest


def test_amf_classifier_learns_a_circle_and_saves():
    clf = forest.AMFClassifier(n_estimators=5, seed=3)
    rng = random.Random(0)
    hits = 0
    for i in range(2000):
        x = {"a": rng.random(), "b": rng.random()}
        y = "in" if (x["a"] - 0.5) ** 2 + (x["b"] - 0.5) ** 2 < 0.16 else "out"
        if i >= 1000:
            hits += clf.predict_one(x) == y
        clf.learn_one(x, y)
    assert hits / 1000 > 0.85
    proba = clf.predict_proba_one({"a": 0.5, "b": 0.5})
    assert set(proba) == {"in", "out"}
    assert abs(sum(proba.values()) - 1.0) < 1e-9
    assert proba["in"] > 0.8


def test_amf_regressor_tracks_a_smooth_function():
    reg = forest.AMFRegressor(when_full="freeze", max_nodes=4096)
    rng = random.Random(1)
    for _ in range(3000):
        x = {"a": rng.random(), "b": rng.random()}
        reg.learn_one(x, math.sin(6 * x["a"]) + x["b"])
    assert abs(reg.predict_one({"a": 0.25, "b": 0.5}) - (math.sin(1.5) + 0.5)) < 0.2


def test_amf_refuses_a_bad_setting():
    try:
        forest.AMFClassifier(dirichlet=0.0)
    except Exception as e:  # the bindings raise ValueError naming the setting
        assert "dirichlet" in str(e)
    else:
        raise AssertionError("dirichlet = 0 was accepted")
