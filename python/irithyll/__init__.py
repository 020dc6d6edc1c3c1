"""irithyll: streaming machine learning (River's API on a C++20 core).

    >>> from irithyll import ensemble
    >>> model = ensemble.SGBTClassifier(n_steps=10, seed=1)
    >>> model.learn_one({"a": 1.0, "b": 0.0}, "up")

Submodules: ensemble, tree, forest, nn, linear_model, naive_bayes, dummy (learners generated from the
model catalogue),
metrics, drift, stream, preprocessing, compose, evaluate, packed, plot.
"""
from . import _core
from . import (compose, drift, dummy, ensemble, evaluate, forest, linear_model, metrics, naive_bayes, nn, packed, plot,
               preprocessing, stream, tree)
from ._persist import load
from .packed import PackedModel

__all__ = ["compose", "drift", "dummy", "ensemble", "evaluate", "forest", "linear_model", "load", "metrics", "naive_bayes", "PackedModel", "nn", "packed", "plot", "preprocessing", "stream", "tree",
           "catalogue_json"]
__version__ = "0.1.0"


def catalogue_json():
    """Every model with every setting, as `irithyll models --json` prints it."""
    return _core.catalogue_json()
