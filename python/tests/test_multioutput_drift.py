"""River's multioutput and drift habits: dict targets, and detectors fed one
value at a time through update() with drift_detected / warning_detected."""
import math
import pickle
import random

import pytest

from irithyll import drift, metrics, multioutput, tree
from irithyll.drift import binary


def friedman_like(n, seed=0):
    rng = random.Random(seed)
    for _ in range(n):
        x = {f"x{i}": rng.random() for i in range(5)}
        y = {"sum": 3.0 * x["x0"] + 2.0 * x["x1"], "product": 10.0 * x["x2"] * x["x3"]}
        yield x, y


def test_multi_target_learns_dict_targets_as_river_users_write_it():
    model = multioutput.MultiTargetSGBTRegressor(n_steps=10, grace_period=50)
    assert model.predict_one({"x0": 0.5}) == {}
    mae = {"sum": metrics.MAE(), "product": metrics.MAE()}
    for i, (x, y) in enumerate(friedman_like(3000)):
        y_pred = model.predict_one(x)
        if i >= 2000:
            for k in y:
                mae[k].update(y[k], y_pred[k])
        model.learn_one(x, y)
    assert set(model.predict_one({f"x{i}": 0.5 for i in range(5)})) == {"sum", "product"}
    # The target spreads are about 1.0 ("sum") and 1.9 ("product"); each
    # member must beat predicting the target's mean by a wide margin.
    assert mae["sum"].get() < 0.5, mae["sum"]
    assert mae["product"].get() < 1.2, mae["product"]


def test_multi_target_members_are_the_single_target_model():
    from irithyll import ensemble
    multi = multioutput.MultiTargetSGBTRegressor(n_steps=5, grace_period=30, seed=3)
    single = ensemble.SGBTRegressor(n_steps=5, grace_period=30, seed=3)
    for x, y in friedman_like(600, seed=1):
        multi.learn_one(x, y)
        single.learn_one(x, y["product"])
    x = {f"x{i}": 0.3 for i in range(5)}
    assert multi.predict_one(x)["product"] == pytest.approx(single.predict_one(x), rel=0, abs=0)


def test_multi_target_missing_target_pickle_and_errors():
    model = multioutput.MultiTargetSGBTRegressor(n_steps=5, grace_period=30)
    data = list(friedman_like(400, seed=2))
    for x, y in data[:200]:
        model.learn_one(x, y)
    model.learn_one(data[200][0], {"sum": 1.0})  # "product" left out: only "sum" learns
    copy = pickle.loads(pickle.dumps(model))
    for x, y in data[201:]:
        model.learn_one(x, y)
        copy.learn_one(x, y)
    x = data[0][0]
    assert copy.predict_one(x) == model.predict_one(x)
    with pytest.raises(ValueError, match="not in the first y"):
        model.learn_one(x, {"other": 1.0})
    with pytest.raises(TypeError, match="dict of target"):
        model.learn_one(x, 1.0)
    with pytest.raises(ValueError, match="finite"):
        model.learn_one(x, {"sum": math.inf})


def rising_errors(n_before, n_after, p_before, p_after, seed=7):
    rng = random.Random(seed)
    return [rng.random() < p_before for _ in range(n_before)] + [rng.random() < p_after for _ in range(n_after)]


@pytest.mark.parametrize("make", [binary.DDM, binary.EDDM, binary.HDDM_A, binary.HDDM_W, drift.EDDM, drift.HDDM_A],
                         ids=["DDM", "EDDM", "HDDM_A", "HDDM_W", "drift.EDDM", "drift.HDDM_A"])
def test_binary_detectors_flag_a_rise_in_the_error_rate(make):
    detector = make()
    stream = rising_errors(1000, 1000, 0.1, 0.6)
    drifts = []
    for i, is_error in enumerate(stream):
        detector.update(is_error)
        if detector.drift_detected:
            drifts.append(i)
    # Fixed seed: the stream is the same every run, so this cannot flake.
    assert drifts, f"{detector!r} never fired"
    assert any(1000 <= i < 1300 for i in drifts), (repr(detector), drifts[:5])
    assert not any(i < 900 for i in drifts), (repr(detector), drifts[:5])


def test_kswin_flags_a_shift_in_the_distribution():
    rng = random.Random(12345)
    data = [rng.gauss(0, 1) for _ in range(1000)] + [rng.gauss(3, 1) for _ in range(500)]
    kswin = drift.KSWIN(alpha=0.0001, seed=42)
    found = []
    for i, x in enumerate(data):
        kswin.update(x)
        if kswin.drift_detected:
            found.append(i)
    assert any(1000 <= i < 1100 for i in found), found[:5]
    assert repr(kswin) == "KSWIN(alpha=0.0001, window_size=100, stat_size=30, seed=42)"


def test_detectors_take_rivers_parameter_names_and_check_them():
    assert binary.EDDM(warm_start=10, alpha=0.9, beta=0.8).beta == 0.8
    assert binary.HDDM_A(drift_confidence=0.01, warning_confidence=0.05, two_sided_test=True).two_sided_test
    assert binary.HDDM_W(lambda_val=0.05).lambda_val == 0.05
    assert drift.KSWIN(window_size=50, stat_size=10, window=[0.1] * 20).window_size == 50
    with pytest.raises(ValueError, match="eddm"):
        binary.EDDM(alpha=0.8, beta=0.9)
    assert binary.EDDM(confirm_window=0, confirm_z=3.0).confirm_window == 0  # 0: the paper's rule
    with pytest.raises(ValueError, match="eddm confirm window"):
        binary.EDDM(confirm_window=500)
    with pytest.raises(ValueError, match="hddm"):
        binary.HDDM_A(drift_confidence=0.1, warning_confidence=0.01)
    with pytest.raises(ValueError, match="kswin"):
        drift.KSWIN(window_size=10, stat_size=30)


def test_warning_comes_before_drift_on_hddm_a():
    detector = binary.HDDM_A()
    warned = drifted = None
    for i, is_error in enumerate(rising_errors(1000, 1000, 0.1, 0.5, seed=3)):
        detector.update(is_error)
        if detector.warning_detected and warned is None:
            warned = i
        if detector.drift_detected and drifted is None:
            drifted = i
    assert drifted is not None and warned is not None and warned <= drifted


def test_hoeffding_tree_regressor_adaptive_leaves_by_default():
    # River's HoeffdingTreeRegressor default (leaf_prediction='adaptive'):
    # on a linear target, at least as good as mean leaves.
    rng = random.Random(4)
    default, mean = tree.HoeffdingTreeRegressor(), tree.HoeffdingTreeRegressor(leaf_prediction="mean")
    err = {"default": metrics.MAE(), "mean": metrics.MAE()}
    for _ in range(4000):
        x = {"a": rng.random(), "b": rng.random()}
        y = 5.0 * x["a"] - 2.0 * x["b"] + rng.gauss(0, 0.1)
        for name, model in (("default", default), ("mean", mean)):
            pred = model.predict_one(x)
            if pred is not None:  # None: nothing learned yet, nothing to score
                err[name].update(y, pred)
        default.learn_one(x, y)
        mean.learn_one(x, y)
    assert err["default"].get() < err["mean"].get()
    assert pickle.loads(pickle.dumps(default)).predict_one({"a": 0.2, "b": 0.7}) == \
        default.predict_one({"a": 0.2, "b": 0.7})


def flip_stream(n, flip_at, seed=0):
    """Two features; the label is a > b, and every label flips at flip_at."""
    rng = random.Random(seed)
    for t in range(n):
        x = {"a": rng.random(), "b": rng.random()}
        above = x["a"] > x["b"]
        yield x, (above if t < flip_at else not above)


def test_drift_retraining_classifier_as_river_users_write_it():
    # River: drift.DriftRetrainingClassifier(model=..., drift_detector=binary.DDM())
    model = drift.DriftRetrainingClassifier(model=tree.HoeffdingTreeClassifier(grace_period=100),
                                            drift_detector=binary.DDM())
    bare = tree.HoeffdingTreeClassifier(grace_period=100)
    after = {"wrapped": metrics.Accuracy(), "bare": metrics.Accuracy()}
    for t, (x, y) in enumerate(flip_stream(12000, 6000)):
        for name, m in (("wrapped", model), ("bare", bare)):
            y_pred = m.predict_one(x)
            if t >= 6000:
                after[name].update(y, y_pred)
            m.learn_one(x, y)
    # The bare tree keeps voting for the old concept under its old splits.
    assert after["wrapped"].get() > after["bare"].get() + 0.2, after
    report = model.diagnostics()["report"]
    assert report["drifts"] >= 1 and report["strategy"] == "reset"
    # pickle keeps the wrapped model and its detector
    clone = pickle.loads(pickle.dumps(model))
    x = {"a": 0.2, "b": 0.7}
    assert clone.predict_one(x) == model.predict_one(x)


def test_drift_retraining_refuses_what_it_cannot_do_by_name():
    with pytest.raises(TypeError, match="default thresholds"):
        drift.DriftRetrainingClassifier(drift_detector=drift.ADWIN(delta=0.1))
    model = drift.DriftRetrainingClassifier(model=tree.HoeffdingTreeClassifier(), strategy="ewc")
    with pytest.raises(ValueError, match="'hoeffding_tree' exposes neither"):
        model.learn_one({"a": 1.0}, True)
    regressor = drift.DriftRetrainingRegressor(drift_detector=binary.DDM())
    with pytest.raises(ValueError, match=r"values in \[0, 1\]"):
        regressor.learn_one({"a": 1.0}, 2.0)
