"""irithyll: streaming machine learning (River's API on a C++20 core).

    >>> from irithyll import ensemble
    >>> model = ensemble.SGBTClassifier(n_steps=10, seed=1)
    >>> model.learn_one({"a": 1.0, "b": 0.0}, "up")

Submodules: ensemble, tree, forest, nn, linear_model, naive_bayes, neighbors, dummy, model_selection,
conformal (learners generated from the model catalogue), anomaly, cluster (KMeans, CluStream, DBSTREAM),
metrics, bandit, drift, multioutput, stream, datasets (local files and synth generators; nothing is downloaded), preprocessing,
feature_extraction, feature_selection, compose, evaluate, utils (Rolling), packed, plot, time_series (forecasters).
"""
from . import _core
from . import (anomaly, bandit, cluster, compose, conformal, datasets, drift, dummy, ensemble, evaluate,
               feature_extraction, feature_selection, forest, linear_model, metrics, model_selection, multioutput,
               naive_bayes, neighbors, nn, optim, packed, plot, preprocessing, stream, time_series, tree, utils)
from ._persist import load
from .packed import PackedModel

__all__ = ["anomaly", "bandit", "cluster", "compose", "conformal", "datasets", "drift", "dummy", "ensemble", "evaluate",
           "feature_extraction", "feature_selection", "forest", "linear_model", "load", "metrics", "model_selection",
           "multioutput", "naive_bayes", "neighbors", "PackedModel", "nn", "optim", "packed", "plot", "preprocessing",
           "stream", "time_series", "tree", "utils",
           "catalogue_json"]
__version__ = "0.1.0"


def catalogue_json():
    """Every model with every setting, as `irithyll models --json` prints it."""
    return _core.catalogue_json()
