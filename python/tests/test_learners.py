"""Every generated learner: construction from the catalogue, learning,
prediction, pickling and bad input."""
import math
import pickle
import warnings

import pytest

import irithyll
from irithyll import _core, _learners, ensemble, nn
from conftest import stream

ALL = [cls for classes in _learners.GENERATED.values() for cls in classes.values()]
SMALL = {"sgbt": {"n_steps": 5}}  # keep the suite quick


def small(cls, **kw):
    return cls(**SMALL.get(cls._model_name, {}), **kw)


def test_every_catalogue_row_has_classes():
    names = {row["name"] for row in _learners.CATALOGUE}
    made = {cls._model_name for cls in ALL}
    assert names == made
    assert ensemble.SGBTClassifier and ensemble.SGBTRegressor and nn.MambaRegressor


def test_multi_target_rows_are_excluded_by_name():
    # Several targets per sample do not fit the one-target classes: the row
    # exists in the library's catalogue but makes no Python class.
    assert "multi_target_sgbt" in {row["name"] for row in _core.catalogue()}
    assert "multi_target_sgbt" in _learners.NOT_IN_PYTHON
    assert "multi_target_sgbt" not in {cls._model_name for cls in ALL}


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_learn_predict_pickle(cls):
    model = small(cls, seed=3)
    classification = issubclass(cls, _learners.Classifier)
    data = stream(120, classification=classification)
    for x, y in data:
        model.predict_one(x)
        model.learn_one(x, y)
    assert model.n_samples_seen > 0
    x0 = data[0][0]
    if classification:
        proba = model.predict_proba_one(x0)
        assert set(proba) == {"up", "down"}
        assert abs(sum(proba.values()) - 1.0) < 1e-6
        assert model.predict_one(x0) in ("up", "down")
    else:
        assert math.isfinite(model.predict_one(x0))
    copy = pickle.loads(pickle.dumps(model))
    assert repr(copy) == repr(model)
    assert copy.predict_one(x0) == model.predict_one(x0)
    # Both continue identically.
    for x, y in data[:20]:
        model.learn_one(x, y)
        copy.learn_one(x, y)
    assert copy.predict_one(x0) == model.predict_one(x0)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_docstring_and_defaults_from_catalogue(cls):
    for f in cls._fields:
        assert f["python_name"] in cls.__doc__
        assert getattr(cls(), f["python_name"]) == _learners.from_text(f, f["default"])


def test_bad_value_names_parameter_and_range():
    with pytest.raises(ValueError, match=r"learning-rate = 2.0 is out of range: must be in \(0, 1\]"):
        ensemble.SGBTClassifier(learning_rate=2.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        ensemble.SGBTRegressor(nope=1)
    with pytest.raises(ValueError, match="seed"):
        ensemble.SGBTRegressor(seed=-1)


def test_repr_shows_settings():
    m = ensemble.SGBTClassifier(n_steps=7, seed=5, classes=["a", "b"])
    assert repr(m) == "SGBTClassifier(n_steps=7, seed=5, classes=['a', 'b'])"
    assert m.n_steps == 7 and m.clone().n_steps == 7


def test_labels_any_hashable_and_capacity():
    m = ensemble.SGBTClassifier(n_steps=3)
    m.learn_one({"a": 1.0}, True)
    m.learn_one({"a": 0.0}, False)
    assert m.labels == [True, False]
    m.learn_one({"a": 0.5}, "third")  # grows, as River's learners do
    assert m.labels == [True, False, "third"] and m.n_classes >= 3
    fixed = ensemble.SGBTClassifier(n_steps=3, classes=[True, False])
    fixed.learn_one({"a": 1.0}, True)
    with pytest.raises(ValueError, match="pass classes"):
        fixed.learn_one({"a": 0.5}, "third")
    m3 = ensemble.SGBTClassifier(n_steps=3, n_classes=3)
    for i, label in enumerate(["x", 7, ("t", 1)]):
        m3.learn_one({"a": float(i)}, label)
    assert set(m3.predict_proba_one({"a": 1.0})) == {"x", 7, ("t", 1)}


def test_missing_and_unseen_keys():
    m = ensemble.SGBTRegressor(n_steps=3)
    m.learn_one({"a": 1.0, "b": 2.0}, 1.0)
    m.learn_one({"a": 1.0}, 1.0)  # b missing: NaN
    with pytest.warns(UserWarning, match="'z'"):
        m.learn_one({"a": 1.0, "b": 1.0, "z": 3.0}, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.learn_one({"a": 1.0, "z": 3.0}, 1.0)  # warned once only
    assert m.features == ["a", "b"]


def test_untrained_predictions():
    # A regressor answers 0.0 before its first sample (as River's regressors
    # do and as the CLI scores the first row); a classifier has nothing to
    # say before its first label (River's convention: progressive validation
    # skips the row).
    reg = ensemble.SGBTRegressor()
    assert reg.predict_one({"a": 1.0}) == 0.0
    reg.learn_one({"a": 1.0}, 2.0)
    assert isinstance(reg.predict_one({"a": 1.0}), float)
    assert ensemble.SGBTClassifier().predict_one({"a": 1.0}) is None
    assert ensemble.SGBTClassifier(classes=[0, 1]).predict_proba_one({"a": 1.0}) == {0: 0.5, 1: 0.5}


def test_catalogue_json():
    assert '"sgbt"' in irithyll.catalogue_json()


def test_keyword_setting_takes_underscore():
    m = ensemble.SGBTRegressor(lambda_=2.0, n_steps=3)
    assert m.lambda_ == 2.0
    m.learn_one({"a": 1.0}, 1.0)
    assert ("lambda", "2") in m._model.settings()


def test_setting_names_are_identifiers():
    for cls in ALL:
        for f in cls._fields:
            assert f["python_name"].isidentifier() and not __import__("keyword").iskeyword(f["python_name"])


def test_stubs_match_catalogue():
    import os
    import subprocess
    import sys
    from conftest import ROOT
    r = subprocess.run([sys.executable, os.path.join(ROOT, "python", "tools", "gen_stubs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_signature_lists_catalogue_settings():
    import inspect
    params = inspect.signature(ensemble.SGBTClassifier).parameters
    assert params["n_steps"].default == 50 and params["seed"].default == 42 and "classes" in params
    with pytest.raises(TypeError):
        ensemble.SGBTClassifier(5)  # keyword-only, as in River


def test_tree_models_rank_features_and_dump_trees():
    from irithyll import forest, tree
    rows = [({"price": (i * 37 % 100) / 100, "noise": (i * 53 % 100) / 100}, (i * 37 % 100) >= 50)
            for i in range(3000)]
    for model, has_gain in [(ensemble.SGBTClassifier(n_steps=4, grace_period=50), True),
                            (tree.HoeffdingTreeClassifier(grace_period=50), False),
                            (forest.ARFClassifier(n_trees=3), False)]:
        for x, y in rows:
            model.learn_one(x, y)
        splits = model.feature_importances("split")
        assert set(splits) == {"price", "noise"}
        assert splits["price"] > 0, type(model).__name__
        if has_gain:
            gain = model.feature_importances()
            assert gain["price"] > gain["noise"]
            assert abs(sum(gain.values()) - 1.0) < 1e-9
        else:
            with pytest.raises(ValueError, match="records no split gains"):
                model.feature_importances("gain")
        assert model.num_trees() >= 1
        text = model.dump_tree(0)
        assert text.splitlines()[0].startswith("price <= "), text
        assert model.dump_tree(model.num_trees() - 1, format="dot").startswith("digraph tree {")
        with pytest.raises(ValueError, match="format must be text or dot"):
            model.dump_tree(0, format="svg")
        with pytest.raises(ValueError, match="trees"):
            model.dump_tree(model.num_trees())
    with pytest.raises(ValueError, match="not a tree model"):
        att = nn.AttentionRegressor()
        att.learn_one({"a": 1.0}, 1.0)
        att.num_trees()


def test_sgbt_soft_kernel_linear_blends_only_near_thresholds():
    # Sibling interpolation (soft_kernel="linear"): the same trees as hard
    # routing (training routes hard), the hard answer away from every
    # threshold and a blend near them.
    kw = dict(n_steps=10, drift="none", seed=3)
    hard = ensemble.SGBTRegressor(**kw)
    lin = ensemble.SGBTRegressor(soft_routing=True, soft_kernel="linear", soft_bandwidth=0.002, **kw)
    for i in range(3000):
        x = {"a": (i * 37 % 1000) / 1000, "b": (i * 11 % 1000) / 1000}
        y = (2.0 if x["a"] > 0.5 else -1.0) + x["b"]
        hard.learn_one(x, y)
        lin.learn_one(x, y)
    grid = [{"a": k / 997, "b": 0.5} for k in range(997)]
    same = sum(hard.predict_one(x) == lin.predict_one(x) for x in grid)
    assert 200 < same < 997
    alone = ensemble.SGBTRegressor(soft_kernel="linear")  # needs soft_routing
    with pytest.raises(ValueError, match="soft-kernel linear needs --soft-routing on"):
        alone.learn_one({"a": 1.0}, 1.0)
