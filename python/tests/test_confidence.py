"""predict_with_confidence: an SGBT's prediction and its confidence
(1 / sqrt(sum over the trees x reaches of lr^2 / (H + lambda))); models
without one raise ValueError naming them."""
import math

import pytest

from irithyll import ensemble, tree
from conftest import stream


def trained(cls, classification, n=800, **kw):
    model = cls(seed=1, **kw)
    for x, y in stream(n, seed=4, classification=classification):
        model.learn_one(x, y)
    return model


def test_sgbt_prediction_and_confidence():
    x = {"a": 0.6, "b": 0.2, "c": 0.5}
    for cls, classification in ((ensemble.SGBTRegressor, False), (ensemble.SGBTClassifier, True)):
        model = trained(cls, classification, n_steps=8, grace_period=50)
        prediction, confidence = model.predict_with_confidence(x)
        assert prediction == model.predict_one(x)
        assert math.isfinite(confidence) and confidence > 0.0


def test_before_learning_and_other_models_are_refused():
    with pytest.raises(ValueError, match="before the first learn_one"):
        ensemble.SGBTRegressor().predict_with_confidence({"a": 0.1})
    model = trained(tree.HoeffdingTreeRegressor, False)
    with pytest.raises(ValueError, match="hoeffding_tree"):
        model.predict_with_confidence({"a": 0.1, "b": 0.2, "c": 0.3})
