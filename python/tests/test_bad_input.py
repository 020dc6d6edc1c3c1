"""Bad samples raise Python exceptions with a message, never crash."""
import math

import pytest

from irithyll import _learners
from test_learners import ALL, small


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_bad_dicts(cls):
    model = small(cls)
    classification = issubclass(cls, _learners.Classifier)
    y0, y1 = ("a", "b") if classification else (1.0, 2.0)
    with pytest.raises(ValueError, match="no features"):
        model.learn_one({}, y0)
    with pytest.raises(TypeError, match="dict"):
        model.learn_one([1.0, 2.0], y0)
    model.learn_one({"f": 1.0, "g": 2.0}, y0)
    model.learn_one({"f": 2.0, "g": 1.0}, y1)
    model.learn_one({"f": "abc", "g": 1.0}, y0)  # text: a category of f
    model.predict_one({"f": "never seen", "g": 1.0})  # a text first seen while predicting: missing
    with pytest.raises(TypeError, match="not a number"):
        model.predict_one({"f": [1], "g": 1.0})
    # NaN, infinities, None and empty dicts are missing values: no error.
    model.learn_one({"f": math.nan, "g": math.inf}, y0)
    model.learn_one({"f": None}, y1)
    model.learn_one({}, y0)
    model.predict_one({})
    if classification:
        with pytest.raises(TypeError):
            model.learn_one({"f": 1.0}, [1, 2])  # unhashable label
        with pytest.raises(ValueError):
            model.learn_one({"f": 1.0}, None)
        model.learn_one({"f": 1.0}, "c")  # a third label: the model grows
        assert set(model.predict_proba_one({"f": 1.0})) <= {"a", "b", "c"} and model.labels == ["a", "b", "c"]
    else:
        with pytest.raises(TypeError, match="must be a number"):
            model.learn_one({"f": 1.0}, "abc")
        for bad in (math.nan, math.inf):
            with pytest.raises(ValueError, match="not a finite number"):
                model.learn_one({"f": 1.0}, bad)
    assert model.n_samples_seen >= 2


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_bad_weights_and_arrays(cls):
    import numpy as np
    model = small(cls)
    classification = issubclass(cls, _learners.Classifier)
    y0 = "a" if classification else 1.0
    model.learn_one({"f": 1.0, "g": 2.0}, y0)
    model.learn_one({"f": 1.0, "g": 2.0}, y0, sample_weight=0.0)  # a zero weight is legitimate
    seen = model.n_samples_seen
    for w in (-1.0, math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="sample_weight must be finite and >= 0"):
            model.learn_one({"f": 1.0, "g": 2.0}, y0, sample_weight=w)
    with pytest.raises(ValueError, match="row 1 is nan"):
        model.learn_many(np.array([[1.0, 2.0], [2.0, 3.0]]), [y0, y0], sample_weight=[1.0, math.nan])
    with pytest.raises(ValueError, match="row 0 is -2.0"):
        model.learn_many(np.array([[1.0, 2.0]]), [y0], sample_weight=[-2.0])
    assert model.n_samples_seen == seen  # refused before anything was learned
    with pytest.raises((TypeError, ValueError)):
        model.learn_one({"f": 1.0}, y0, sample_weight="heavy")
    X = np.array([[1.0, np.nan], [np.inf, -np.inf]])
    out = model.predict_many(X)
    assert len(out) == 2
    with pytest.raises(ValueError):
        model.predict_many(np.zeros((2, 3)))
    with pytest.raises(ValueError):
        model.predict_many(np.zeros(4))
    with pytest.raises(ValueError):
        model.learn_many(np.array([["x", "y"]]), [y0])
    if not classification:
        assert all(math.isfinite(v) for v in model.predict_many(np.array([[1.0, 2.0]])))
