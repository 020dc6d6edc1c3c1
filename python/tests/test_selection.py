"""model_selection.AutoClassifier / AutoRegressor and conformal.Interval /
ClassifierSets: generated from the catalogue, with a leaderboard and
interval / set predictions."""
import random

from irithyll import conformal, model_selection


def _friedman(rng):
    x = {f"x{i}": rng.random() for i in range(5)}
    y = 10 * x["x0"] * x["x1"] + 20 * (x["x2"] - 0.5) ** 2 + 10 * x["x3"] + 5 * x["x4"] + rng.gauss(0, 1)
    return x, y


def test_auto_classifier_reports_its_leader():
    rng = random.Random(1)
    model = model_selection.AutoClassifier(pool="sgbt:n_steps=5;hoeffding_tree;no_such_model", seed=3)
    for _ in range(600):
        a, b = rng.random(), rng.random()
        model.learn_one({"a": a, "b": b}, "up" if a + b > 1 else "down")
    board = model.leaderboard()
    assert board["leader"] in ("sgbt:n_steps=5", "hoeffding_tree")
    assert sum(c["samples_led"] for c in board["configurations"]) == 600
    assert model.predict_one({"a": 0.9, "b": 0.9}) == "up"


def test_interval_covers_about_ninety_percent():
    # 3000 samples after a 500-sample warm-up: coverage sd 0.0055 for a
    # calibrated interval; 0.85-0.95 is 9 sd (false-failure rate < 1e-9).
    rng = random.Random(2)
    model = conformal.Interval(model="hoeffding_tree", level=0.9, seed=1)
    covered = n = 0
    for t in range(3500):
        x, y = _friedman(rng)
        lo, hi = model.predict_interval_one(x)
        if t >= 500:
            covered += lo <= y <= hi
            n += 1
        model.learn_one(x, y)
    assert 0.85 <= covered / n <= 0.95
    assert isinstance(model.predict_one(x), float)


def test_classifier_sets_hold_labels():
    rng = random.Random(3)
    model = conformal.ClassifierSets(model="hoeffding_tree", seed=1)
    for _ in range(500):
        a = rng.random()
        model.learn_one({"a": a}, "hi" if a > 0.5 else "lo")
    assert model.predict_set_one({"a": 0.95}) <= {"hi", "lo"}
    assert "hi" in model.predict_set_one({"a": 0.95})
