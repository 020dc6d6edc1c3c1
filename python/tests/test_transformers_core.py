"""The catalogue transformers as dict transformers: preprocessing.CCIPCA,
preprocessing.AttentionFeatures, feature_selection.CorrelationSelector, and
the generic binding under them (_core.Transformer). CCIPCA's leading
component is compared with NumPy's eigenvector of the sample covariance
(skipped without NumPy). Every stream here comes from a fixed seed, so each
test is deterministic: none can fail by chance."""
import doctest
import math
import pickle
import random
import struct

import pytest

from irithyll import _core, compose, feature_selection, linear_model, preprocessing
from conftest import need_module


def _gaussian_2d(n, seed=0):
    """Correlated 2-D Gaussian: covariance [[3, 2], [2, 2]] (eigenvalues
    4.56 and 0.44), mean (1, -2)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        z1, z2 = rng.gauss(0, 1), rng.gauss(0, 1)
        # Cholesky factor of the covariance: L = [[sqrt 3, 0], [2/sqrt 3, sqrt(2 - 4/3)]]
        a = math.sqrt(3.0) * z1
        b = 2.0 / math.sqrt(3.0) * z1 + math.sqrt(2.0 - 4.0 / 3.0) * z2
        out.append({"a": 1.0 + a, "b": -2.0 + b})
    return out


def _regression_rows(n, seed=0):
    """Four features; y depends on x2 only."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        x = {f"x{i}": rng.gauss(0, 1) for i in range(4)}
        rows.append((x, 3.0 * x["x2"] + 0.1 * rng.gauss(0, 1)))
    return rows


def _bits(d):
    return {k: struct.pack("<d", v) for k, v in d.items()}


def test_docstring_examples_run():
    for cls in (preprocessing.CCIPCA, preprocessing.AttentionFeatures, feature_selection.CorrelationSelector):
        finder = doctest.DocTestFinder(recurse=False)
        runner = doctest.DocTestRunner()
        for test in finder.find(cls, cls.__name__, globs={}):
            runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.attempted > 0 and result.failed == 0, cls.__name__


def test_docstrings_list_the_library_settings():
    assert "n_components = 2 " in preprocessing.CCIPCA.__doc__
    assert "amnesic" in preprocessing.CCIPCA.__doc__
    assert "d_model" in preprocessing.AttentionFeatures.__doc__
    assert "warmup" in feature_selection.CorrelationSelector.__doc__


# --- CCIPCA -----------------------------------------------------------------------------
def test_ccipca_first_component_matches_numpy_eigenvector():
    np = need_module("numpy", "python3-numpy")
    rows = _gaussian_2d(4000)
    pca = preprocessing.CCIPCA(n_components=2)
    for x in rows:
        pca.learn_one(x)
    # pc0(x) = (x - mean)·e1 is affine in x: e1 is read from unit steps.
    origin = pca.transform_one({"a": 0.0, "b": 0.0})["pc0"]
    e1 = np.array([pca.transform_one({"a": 1.0, "b": 0.0})["pc0"] - origin,
                   pca.transform_one({"a": 0.0, "b": 1.0})["pc0"] - origin])
    data = np.array([[x["a"], x["b"]] for x in rows])
    values, vectors = np.linalg.eigh(np.cov(data, rowvar=False))
    lead = vectors[:, np.argmax(values)]
    cos = abs(float(e1 @ lead)) / float(np.linalg.norm(e1))
    assert cos > 0.99
    assert np.linalg.norm(e1) == pytest.approx(1.0, abs=1e-9)  # a unit component


def test_ccipca_output_keys_and_missing_values():
    pca = preprocessing.CCIPCA(n_components=2)
    assert pca.transform_one({"a": 1.0, "b": 2.0, "c": 3.0}) == {"pc0": 0.0, "pc1": 0.0}  # nothing learned yet
    for x in _gaussian_2d(300):
        pca.learn_one({**x, "c": x["a"] - x["b"]})
    assert pca.features == ["a", "b", "c"]
    out = pca.transform_one({"a": 1.0, "c": None})  # b missing, c None: both count as their mean
    assert list(out) == ["pc0", "pc1"] and all(math.isfinite(v) for v in out.values())
    with pytest.warns(UserWarning, match="'d'"):
        pca.learn_one({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0})
    with pytest.warns(UserWarning, match="shares no feature"):
        assert set(pca.transform_one({"z": 1.0})) == {"pc0", "pc1"}


def test_ccipca_more_components_than_features_is_refused_naming_the_setting():
    pca = preprocessing.CCIPCA(n_components=3)
    with pytest.raises(ValueError, match="n-components"):
        pca.learn_one({"a": 1.0, "b": 2.0})


# --- CorrelationSelector ----------------------------------------------------------------
def test_selector_keeps_the_informative_feature():
    sel = feature_selection.CorrelationSelector(keep=0.25, warmup=50)
    assert sel._supervised
    for x, y in _regression_rows(2000):
        sel.learn_one(x, y)
    out = sel.transform_one({"x0": 1.0, "x1": 1.0, "x2": 1.0, "x3": 1.0})
    assert out == {"x0": 0.0, "x1": 0.0, "x2": 1.0, "x3": 0.0}


def test_selector_keeps_everything_during_warmup():
    sel = feature_selection.CorrelationSelector(keep=0.25, warmup=100)
    for x, y in _regression_rows(50):
        sel.learn_one(x, y)
    assert sel.transform_one({"x0": 1.0, "x1": 2.0, "x2": 3.0, "x3": 4.0}) == \
        {"x0": 1.0, "x1": 2.0, "x2": 3.0, "x3": 4.0}


def test_selector_with_class_labels():
    rng = random.Random(3)
    sel = feature_selection.CorrelationSelector(keep=0.5, warmup=20, classes=["lo", "hi"])
    for _ in range(1000):
        x = {"noise": rng.random(), "signal": rng.random()}
        sel.learn_one(x, "hi" if x["signal"] > 0.5 else "lo")
    assert sel.transform_one({"noise": 1.0, "signal": 1.0}) == {"noise": 0.0, "signal": 1.0}
    with pytest.raises(ValueError, match="'mid'"):
        sel.learn_one({"noise": 0.0, "signal": 0.0}, "mid")
    with pytest.raises(TypeError, match="classes"):
        feature_selection.CorrelationSelector().learn_one({"a": 1.0}, "up")


# --- AttentionFeatures ------------------------------------------------------------------
def test_attention_width_keys_and_finiteness():
    rng = random.Random(5)
    att = preprocessing.AttentionFeatures(d_model=8, seed=3)
    plain = preprocessing.AttentionFeatures(d_model=8, passthrough=False, seed=3)
    for i in range(400):
        x = {"a": rng.gauss(0, 1), "b": rng.gauss(5, 10), "c": rng.random()}
        if i % 17 == 0:
            x["b"] = float("nan")
        if i % 23 == 22:  # never the first sample, which fixes the feature set
            del x["c"]
        for t in (att, plain):
            t.learn_one(x)
            out = t.transform_one(x)
            assert all(math.isfinite(v) for k, v in out.items() if str(k).startswith("att"))
            # passthrough: the inputs as given (a missing one is NaN)
            assert all(out[k] == v for k, v in x.items() if k in out and not math.isnan(v))
    out = att.transform_one({"a": 1e300, "b": -1e300, "c": 0.0})
    assert list(out) == ["a", "b", "c"] + [f"att{i}" for i in range(8)]
    assert all(math.isfinite(out[f"att{i}"]) for i in range(8))
    assert list(plain.transform_one({"a": 0.0})) == [f"att{i}" for i in range(8)]


def test_transform_after_learn_gives_the_features_from_before_learning():
    # The library's test-then-train order: a Pipeline learns a step then
    # transforms the same sample, and must see what predicting would see.
    rows = _gaussian_2d(50, seed=2)
    att = preprocessing.AttentionFeatures(d_model=4)
    for x in rows[:-1]:
        att.learn_one(x)
    x = rows[-1]
    before = att.transform_one(x)
    att.learn_one(x)
    assert _bits(att.transform_one(x)) == _bits(before)
    assert att.transform_one(x) != before  # later, x is part of the attention state


# --- pipelines --------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: preprocessing.CCIPCA(n_components=2),
    lambda: preprocessing.AttentionFeatures(d_model=4),
    lambda: feature_selection.CorrelationSelector(keep=0.5, warmup=20),
])
def test_composes_before_a_linear_model(make):
    step = make()
    model = step | linear_model.LinearRegression()
    assert isinstance(model, compose.Pipeline)
    rows = _regression_rows(600, seed=1)
    errors = []
    for x, y in rows:
        p = model.predict_one(x)
        if p is not None:
            assert math.isfinite(p)
            errors.append(abs(p - y))
        model.learn_one(x, y)
    assert len(errors) > 500
    union = compose.TransformerUnion(make(), preprocessing.StandardScaler())
    for x, y in rows[:50]:
        union.learn_one(x, y)
    assert set(union.transform_one(rows[0][0])) >= {"x0", "x1", "x2", "x3"}


def test_selector_pipeline_learns_the_signal():
    model = feature_selection.CorrelationSelector(keep=0.25, warmup=50) | linear_model.LinearRegression()
    rows = _regression_rows(3000, seed=4)
    late = []
    for i, (x, y) in enumerate(rows):
        p = model.predict_one(x)
        if i >= 2500:
            late.append((p - y) ** 2)
        model.learn_one(x, y)
    assert sum(late) / len(late) < 0.5  # Var(y) is 9: the kept feature explains it


# --- checkpoints ------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: preprocessing.CCIPCA(n_components=2, amnesic=2.0),
    lambda: preprocessing.AttentionFeatures(d_model=4, mode="deltanet", seed=9),
    lambda: feature_selection.CorrelationSelector(keep=0.5, warmup=20),
])
def test_pickle_continues_bit_identically(make):
    rows = _regression_rows(400, seed=6)
    a = make()
    for x, y in rows[:200]:
        a.learn_one(x, y) if getattr(a, "_supervised", False) else a.learn_one(x)
    b = pickle.loads(pickle.dumps(a))
    assert repr(b) == repr(a) and b.features == a.features
    assert b._core.encode() == a._core.encode()
    for x, y in rows[200:]:
        for t in (a, b):
            t.learn_one(x, y) if getattr(t, "_supervised", False) else t.learn_one(x)
        assert _bits(a.transform_one(x)) == _bits(b.transform_one(x))
    assert b._core.encode() == a._core.encode()
    fresh = pickle.loads(pickle.dumps(make()))
    assert fresh.features is None and repr(fresh) == repr(make())
    assert repr(a.clone()) == repr(a) and a.clone().features is None


def test_hostile_checkpoints_are_refused():
    core = _core.Transformer.make("ccipca", [("n-components", "2")], 3)
    core.learn_one([1.0, 2.0, 3.0])
    good = core.encode()
    for bad in (b"", b"garbage", good[:-1], good + b"\x00", good[:12] + b"\xff" * (len(good) - 12)):
        with pytest.raises((ValueError, NotImplementedError)):
            _core.Transformer.decode(bad)
    assert _core.Transformer.decode(good).encode() == good


# --- settings and the generic binding ---------------------------------------------------
@pytest.mark.parametrize("make, setting", [
    (lambda: preprocessing.CCIPCA(n_components=0), "n-components"),
    (lambda: preprocessing.CCIPCA(amnesic=-1.0), "amnesic"),
    (lambda: preprocessing.AttentionFeatures(d_model=1000), "d-model"),
    (lambda: preprocessing.AttentionFeatures(mode="nosuchmode"), "mode"),
    (lambda: feature_selection.CorrelationSelector(keep=2.0), "keep"),
    (lambda: feature_selection.CorrelationSelector(alpha=0.0), "alpha"),
])
def test_bad_settings_raise_value_error_naming_the_setting(make, setting):
    with pytest.raises(ValueError, match=setting):
        make()


def test_unknown_keyword_and_bad_seed():
    with pytest.raises(TypeError, match="n_comp"):
        preprocessing.CCIPCA(n_comp=2)
    with pytest.raises(ValueError, match="seed"):
        preprocessing.AttentionFeatures(seed=-1)


def test_generic_binding_rows():
    t = _core.Transformer.make("ccipca", [("n_components", "1")], 2)
    assert t.name == "ccipca" and t.input_size == 2 and t.output_size(2) == 1
    for x in _gaussian_2d(100):
        t.learn_one([x["a"], x["b"]])
    assert len(t.transform_one([1.0, 2.0])) == 1
    with pytest.raises(ValueError, match="2"):
        t.transform_one([1.0])
    sel = _core.Transformer.make("feature_selector", [("keep", "0.5"), ("warmup", "0")], 2)
    for x, y in [([1.0, 0.0], 1.0), ([2.0, 1.0], 2.0), ([3.0, 0.0], 3.0), ([4.0, 1.0], 4.0)]:
        sel.learn_supervised(x, y)
    assert sel.transform_one([5.0, 5.0]) == [5.0, 0.0]
    with pytest.raises(ValueError, match="unknown transformer 'nope'"):
        _core.Transformer.make("nope", [], 2)
    with pytest.raises(ValueError, match="unknown setting"):
        _core.Transformer.make("ccipca", [("bogus", "1")], 2)


def test_from_spec_builds_the_pipeline_step_form():
    t = _core.Transformer.from_spec("ccipca(n-components=1; amnesic=2)", 3)
    assert t.name == "ccipca" and t.output_size(3) == 1
    same = _core.Transformer.make("ccipca", [("n-components", "1"), ("amnesic", "2")], 3)
    assert t.encode() == same.encode()
    with pytest.raises(ValueError, match="n-components"):
        _core.Transformer.from_spec("ccipca(n-components=0)", 3)
    with pytest.raises(ValueError, match="one transformer step"):
        _core.Transformer.from_spec("ccipca|standard_scaler", 3)


def test_learn_many_in_a_pipeline_matches_learning_row_by_row():
    pd = need_module("pandas", "python3-pandas")
    rows = _regression_rows(300, seed=8)
    X = pd.DataFrame([x for x, _ in rows])
    y = pd.Series([t for _, t in rows])
    for make in (lambda: preprocessing.CCIPCA(n_components=2),
                 lambda: feature_selection.CorrelationSelector(keep=0.25, warmup=20)):
        batch, single = make(), make()
        (batch | linear_model.LinearRegression()).learn_many(X, y)
        for x, t in rows:
            single.learn_one(x, t) if getattr(single, "_supervised", False) else single.learn_one(x)
        assert batch._core.encode() == single._core.encode()
    with pytest.raises(ValueError, match="targets"):
        feature_selection.CorrelationSelector().learn_many(X, y[:10])


def test_python_transformers_learn_in_a_pipeline_batch():
    """StandardScaler, MinMaxScaler and OneHotEncoder learn from a
    pipeline's learn_many as from a learn_one loop (their learn_many once
    learned nothing, so a batch-trained pipeline scaled everything to 0)."""
    pd = need_module("pandas", "python3-pandas")
    rows = _regression_rows(200, seed=9)
    X = pd.DataFrame([x for x, _ in rows])
    y = pd.Series([t for _, t in rows])
    for make in (preprocessing.StandardScaler, preprocessing.MinMaxScaler):
        batch, single = make(), make()
        (batch | linear_model.LinearRegression()).learn_many(X, y)
        for x, _ in rows:
            single.learn_one(x)
        probe = rows[0][0]
        assert batch.transform_one(probe) == single.transform_one(probe)
        assert any(v != 0.0 for v in batch.transform_one(probe).values())
    hot = preprocessing.OneHotEncoder(drop_zeros=False)
    hot.learn_many(pd.DataFrame({"c": ["u", "v", "u"]}))
    assert hot.transform_one({"c": "v"}) == {"c_u": 0, "c_v": 1}


def test_catalogue_placement_names_existing_classes():
    import importlib
    import json
    rows = json.loads(_core.transformers_json())
    placed = {}
    for row in rows:
        if row["python_module"]:
            cls = getattr(importlib.import_module("irithyll." + row["python_module"]), row["python_class"])
            placed[row["name"]] = cls
            if hasattr(cls, "_kind"):  # a class over the C++ transformer itself
                assert cls._kind == row["name"]
    assert placed["ccipca"] is preprocessing.CCIPCA
    assert placed["attention_features"] is preprocessing.AttentionFeatures
    assert placed["feature_selector"] is feature_selection.CorrelationSelector


def test_signatures_show_the_settings():
    import inspect
    assert list(inspect.signature(preprocessing.CCIPCA).parameters) == ["n_components", "amnesic", "seed"]
    sig = inspect.signature(feature_selection.CorrelationSelector)
    assert sig.parameters["keep"].default == 0.5 and "classes" in sig.parameters
    assert inspect.signature(preprocessing.AttentionFeatures).parameters["mode"].default == "gla"
