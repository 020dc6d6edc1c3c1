"""threads= reaches ARF, SRP and leveraging bagging from Python like any other
setting: the same predictions and pickled state as one thread."""
import pickle

import pytest

from irithyll import ensemble, forest
from conftest import stream

MODELS = [forest.ARFClassifier, forest.ARFRegressor, ensemble.SRPClassifier, ensemble.SRPRegressor,
          ensemble.LeveragingBaggingClassifier]


def run(cls, threads):
    classification = not cls.__name__.endswith("Regressor")
    m = cls(threads=threads, seed=3, grace_period=20)
    preds = []
    for x, y in stream(n=1500, seed=5, classification=classification):
        preds.append(m.predict_one(x))
        m.learn_one(x, y)
    return preds, m


@pytest.mark.parametrize("cls", MODELS, ids=lambda c: c.__name__)
def test_threads_give_the_same_results(cls):
    one, m1 = run(cls, 1)
    three, m3 = run(cls, 3)
    assert one == three
    assert pickle.loads(pickle.dumps(m3)).predict_one({"a": 0.2, "b": 0.9, "c": 0.4}) == m1.predict_one(
        {"a": 0.2, "b": 0.9, "c": 0.4})


def test_threads_out_of_range_is_refused():
    with pytest.raises(ValueError, match="threads"):
        forest.ARFClassifier(threads=0).learn_one({"a": 1.0}, "x")
