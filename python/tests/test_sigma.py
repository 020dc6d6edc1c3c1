"""predict_sigma_one: a distributional_sgbt's predictive sigma and honest
sigma (the spread of its location trees' contributions); the model's extras
as keyword settings; other models raise ValueError naming them."""
import math

import pytest

from irithyll import ensemble, tree
from conftest import stream


def trained(cls, n=1200, **kw):
    model = cls(seed=1, **kw)
    for x, y in stream(n, seed=4, classification=False):
        model.learn_one(x, y)
    return model


def test_sigma_and_honest_sigma():
    model = trained(ensemble.DistributionalSGBTRegressor, n_steps=8, grace_period=50, honest_sigma=True,
                    huber_k=1.345, uncertainty_modulated_lr=True, packed_refresh_interval=100)
    spread = 0
    for x, _ in stream(20, seed=9, classification=False):
        out = model.predict_sigma_one(x)
        assert set(out) == {"sigma", "honest_sigma"}
        assert math.isfinite(out["sigma"]) and out["sigma"] > 0.0
        assert math.isfinite(out["honest_sigma"]) and out["honest_sigma"] >= 0.0
        spread += out["honest_sigma"] > 0.0
    assert spread > 10
    report = model.diagnostics()["report"]
    assert report["rolling_honest_sigma_mean"] > 0.0
    assert report["packed_mu"] is True


def test_before_learning_and_other_models_are_refused():
    with pytest.raises(ValueError, match="before the first learn_one"):
        ensemble.DistributionalSGBTRegressor().predict_sigma_one({"a": 0.1})
    model = trained(tree.HoeffdingTreeRegressor, n=300)
    with pytest.raises(ValueError, match="hoeffding_tree"):
        model.predict_sigma_one({"a": 0.1, "b": 0.2, "c": 0.3})
