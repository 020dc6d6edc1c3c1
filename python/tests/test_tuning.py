"""config_diagnostics / adjust_config / apply_structural_change: the tuning
hooks of SGBT and the SGD linear models. An adjustment becomes the model's
settings (attributes, repr, clone, pickle), the model keeps learning from
the same state, and models without the hooks are refused by name."""
import pickle
import random

import pytest

from irithyll import ensemble, linear_model, tree

SIGNALS = ["residual_alignment", "regularization_sensitivity", "depth_sufficiency", "effective_dof", "uncertainty"]


def _rows(n, seed=1):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x = {"a": rng.random(), "b": rng.random()}
        out.append((x, 3 * x["a"] - x["b"] ** 2 + 0.05 * rng.random()))
    return out


def test_signals_are_the_five_in_order():
    m = ensemble.SGBTRegressor(n_steps=8, grace_period=50)
    for x, y in _rows(1500):
        m.learn_one(x, y)
    d = m.config_diagnostics()
    assert list(d) == SIGNALS
    assert d["effective_dof"] > 8  # trees have split
    assert 0 <= d["regularization_sensitivity"] <= 1 and 0 <= d["depth_sufficiency"] <= 1
    assert -1 <= d["residual_alignment"] <= 1 and d["uncertainty"] > 0


def test_adjustment_becomes_the_settings_and_survives_pickle():
    rows = _rows(2500)
    m = ensemble.SGBTRegressor(n_steps=8, grace_period=50)
    for x, y in rows[:1500]:
        m.learn_one(x, y)
    m.adjust_config(1.0, 0.0)
    m.apply_structural_change(0, 0)
    assert repr(m) == "SGBTRegressor(n_steps=8, grace_period=50)"
    m.adjust_config(lr_multiplier=0.5, lambda_delta=0.2)
    m.apply_structural_change(depth_delta=1, steps_delta=2)
    assert (m.learning_rate, m.lambda_, m.max_depth, m.n_steps) == (0.05, 0.5, 7, 10)
    assert m.clone().n_steps == 10
    copy = pickle.loads(pickle.dumps(m))
    assert repr(copy) == repr(m)
    for x, y in rows[1500:]:
        assert m.predict_one(x) == copy.predict_one(x)
        m.learn_one(x, y)
        copy.learn_one(x, y)
    # The change took: an unadjusted twin predicts otherwise.
    twin = ensemble.SGBTRegressor(n_steps=8, grace_period=50)
    for x, y in rows:
        twin.learn_one(x, y)
    assert any(twin.predict_one(x) != m.predict_one(x) for x, _ in rows[:50])


def test_linear_models_move_their_rates_and_refuse_structure():
    m = linear_model.LogisticRegression()
    for x, y in _rows(500):
        m.learn_one(x, y > 1)
    d = m.config_diagnostics()
    assert d["effective_dof"] == 3.0 and d["depth_sufficiency"] == 0.0
    m.adjust_config(3, 0.1)
    assert (m.learning_rate, m.l2, m.intercept_lr) == (pytest.approx(0.03), 0.1, pytest.approx(0.03))
    with pytest.raises(ValueError, match="logistic_regression: a linear model has no depth or steps"):
        m.apply_structural_change(1, 0)


def test_refusals_name_what_is_wrong():
    m = ensemble.SGBTRegressor()
    with pytest.raises(ValueError, match="before the first learn_one"):
        m.adjust_config(0.5)
    for x, y in _rows(100):
        m.learn_one(x, y)
    with pytest.raises(ValueError, match="multiplier must be a finite number > 0"):
        m.adjust_config(0.0)
    with pytest.raises(ValueError, match="lambda change must be a finite number"):
        m.adjust_config(1.0, float("nan"))
    with pytest.raises(TypeError, match="depth_delta must be an integer"):
        m.apply_structural_change(depth_delta=1.5)
    assert m.learning_rate == 0.1  # nothing changed
    t = tree.HoeffdingTreeRegressor()
    for x, y in _rows(50):
        t.learn_one(x, y)
    with pytest.raises(ValueError, match="'hoeffding_tree' has no settings to tune"):
        t.config_diagnostics()
    with pytest.raises(ValueError, match="'hoeffding_tree' has no settings to tune"):
        t.adjust_config(0.5)


def test_diagnostics_show_tree_structure_replacements_and_signals():
    m = ensemble.SGBTClassifier(n_steps=6, grace_period=50)
    rows = _rows(2000)
    for x, y in rows:
        m.learn_one(x, y > 1)
    d = m.diagnostics()
    (committee,) = d["ensembles"]
    assert committee["n_steps"] == 6 and len(committee["trees"]) == 6
    # The CLI's `inspect --json` fields, read from the same report.
    assert committee["n_trees"] == 6 and committee["committee"] == 0
    assert all(t["leaf_min"] <= t["leaf_max"] for t in committee["trees"])
    assert all(t["depth"] >= 1 and t["n_leaves"] >= 2 and t["n_samples"] > 0 for t in committee["trees"])
    assert d["replacements"] == sum(t["replacements"] for t in committee["trees"])
    assert d["tuning_signals"] == m.config_diagnostics()
    m.apply_structural_change(steps_delta=-2)
    assert len(m.diagnostics()["ensembles"][0]["trees"]) == 4
    plain = tree.HoeffdingTreeClassifier()
    for x, y in rows[:200]:
        plain.learn_one(x, y > 1)
    assert "ensembles" not in plain.diagnostics() and "tuning_signals" not in plain.diagnostics()


def test_prune_half_life_is_a_setting_and_pruning_runs_on_demand():
    rows = _rows(3000, seed=4)
    m = ensemble.SGBTRegressor(n_steps=8, grace_period=50)
    for x, y in rows[:1500]:
        m.learn_one(x, y)
    assert m.check_proactive_prune() is False  # no averages to judge by yet
    m.set_prune_half_life(30)
    assert m.prune_half_life == 30.0 and "prune_half_life=30" in repr(m)
    for x, y in rows[1500:2200]:
        m.learn_one(x, y)
    before = m.diagnostics()["replacements"]
    assert m.check_proactive_prune() is True
    assert m.diagnostics()["replacements"] == before + 1
    copy = pickle.loads(pickle.dumps(m))
    assert copy.prune_half_life == 30.0
    for x, y in rows[2200:]:
        assert m.predict_one(x) == copy.predict_one(x)
        m.learn_one(x, y)
        copy.learn_one(x, y)
    for bad in (0.5, -2, float("nan"), 1e13):
        with pytest.raises(ValueError, match="prune half-life must be 0"):
            m.set_prune_half_life(bad)
    with pytest.raises(TypeError, match="half_life must be a number"):
        m.set_prune_half_life("30")
    assert m.prune_half_life == 30.0
    m.set_prune_half_life(0)
    assert m.prune_half_life == 0 and m.check_proactive_prune() is False
    lin = linear_model.LinearRegression()
    for x, y in rows[:100]:
        lin.learn_one(x, y)
    with pytest.raises(ValueError, match="linear_regression: a linear model has no parts to prune"):
        lin.set_prune_half_life(10)
    assert lin.check_proactive_prune() is False
