"""River-style use of irithyll.linear_model and irithyll.naive_bayes:
learn_one / predict_one / predict_proba_one on dict samples, labels of any
hashable type, settings as keyword arguments, and pickling."""
import math
import pickle

import pytest

from irithyll import linear_model, naive_bayes
from conftest import stream

# (class, settings, accuracy it must beat on the second half of the stream)
CLASSIFIERS = [
    (linear_model.LogisticRegression, {}, 0.9),
    (linear_model.SoftmaxRegression, {"optimizer": "adam"}, 0.9),
    (linear_model.PAClassifier, {"mode": "pa-ii", "c": 0.5}, 0.8),
    (linear_model.Perceptron, {}, 0.8),
    (linear_model.ALMAClassifier, {}, 0.8),
    (naive_bayes.GaussianNB, {}, 0.8),
    (naive_bayes.BernoulliNB, {"binarize": 0.5}, 0.7),
    # Uniform features are not counts; the class still shifts their mix.
    (naive_bayes.MultinomialNB, {"alpha": 0.5}, 0.6),
]
REGRESSORS = [
    (linear_model.LinearRegression, {"optimizer": "adagrad", "learning_rate": 0.1}),
    (linear_model.PARegressor, {"epsilon": 0.01}),
    (linear_model.RLSRegressor, {"forgetting_factor": 1.0}),
    (linear_model.KRLSRegressor, {"budget": 50}),
]


@pytest.mark.parametrize("cls,params,floor", CLASSIFIERS, ids=lambda v: getattr(v, "__name__", ""))
def test_classifier_learns_river_style(cls, params, floor):
    model = cls(**params)
    correct = 0
    data = stream(2000, seed=1)
    for i, (x, y) in enumerate(data):
        if i >= 1000:
            correct += model.predict_one(x) == y
        model.learn_one(x, y)
    # y = "up" iff a + b > 1.
    assert correct / 1000 > floor, cls.__name__
    proba = model.predict_proba_one({"a": 0.9, "b": 0.8, "c": 0.1})
    assert set(proba) == {"up", "down"}
    assert abs(sum(proba.values()) - 1.0) < 1e-9
    copy = pickle.loads(pickle.dumps(model))
    assert copy.predict_proba_one({"a": 0.2, "b": 0.1, "c": 0.5}) == model.predict_proba_one(
        {"a": 0.2, "b": 0.1, "c": 0.5})


@pytest.mark.parametrize("cls,params", REGRESSORS, ids=lambda v: getattr(v, "__name__", ""))
def test_regressor_learns_river_style(cls, params):
    model = cls(**params)
    data = stream(3000, seed=2, classification=False)
    for x, y in data:
        model.learn_one(x, y)
    se = sum((model.predict_one(x) - y) ** 2 for x, y in stream(300, seed=3, classification=False))
    assert se / 300 < 0.01, cls.__name__
    assert math.isfinite(model.predict_one({"a": float("nan"), "b": 0.5, "c": 0.5}))


def test_multiclass_and_labels_of_any_type():
    model = naive_bayes.GaussianNB(classes=["low", "mid", "high"])
    for x, y in stream(600, seed=4, classification=False):
        model.learn_one(x, "low" if y < 0.3 else "mid" if y < 0.8 else "high")
    assert model.predict_one({"a": 0.95, "b": 0.0, "c": 0.5}) == "high"
    assert set(model.predict_proba_one({"a": 0.1, "b": 0.9, "c": 0.5})) == {"low", "mid", "high"}


def test_settings_are_checked():
    with pytest.raises(ValueError):
        linear_model.LogisticRegression(optimizer="rmsprop")
    with pytest.raises(ValueError):
        naive_bayes.MultinomialNB(alpha=0)


RIVER_BINARY = [linear_model.LogisticRegression, linear_model.Perceptron, linear_model.PAClassifier,
                linear_model.ALMAClassifier]


@pytest.mark.parametrize("cls", RIVER_BINARY, ids=lambda c: c.__name__)
def test_river_binary_classifiers_start_with_false_and_true(cls):
    """As River's binary classifiers: untrained, False with {False: 0.5,
    True: 0.5} (so progressive validation scores the first sample, as
    River's does)."""
    model = cls()
    assert model.predict_one({"a": 1.0}) is False
    assert model.predict_proba_one({"a": 1.0}) == {False: 0.5, True: 0.5}
    # One label seen: the other slot still holds False, and its probability counts.
    model.learn_one({"a": 1.0}, True)
    assert set(model.predict_proba_one({"a": 1.0})) == {False, True}
    # 0 and 1 take the False and True slots and are then reported as given.
    ints = cls()
    ints.learn_one({"a": 1.0}, 1)
    ints.learn_one({"a": -1.0}, 0)
    assert ints.labels == [0, 1] and all(type(v) is int for v in ints.labels)
    # Any other first label drops both placeholders: labels as they appear.
    words = cls()
    words.learn_one({"a": 1.0}, "up")
    words.learn_one({"a": -1.0}, "down")
    assert words.labels == ["up", "down"] and words.n_classes == 2
    # Given classes are the classes.
    assert cls(classes=["x", "y"]).predict_one({"a": 1.0}) == "x"
    copy = pickle.loads(pickle.dumps(cls()))
    copy.learn_one({"a": 1.0}, "up")
    assert copy.labels == ["up"]


def test_multiclass_models_start_with_no_label():
    assert linear_model.SoftmaxRegression().predict_one({"a": 1.0}) is None
    assert naive_bayes.GaussianNB().predict_one({"a": 1.0}) is None


@pytest.mark.parametrize("build", [linear_model.LogisticRegression, linear_model.Perceptron,
                                   linear_model.LinearRegression],
                         ids=lambda c: c.__name__)
def test_standard_scaler_in_front_turns_standardize_off(build):
    """StandardScaler() | model: the model's own standardisation defaults to
    off (its input is already standardised); given, it is kept."""
    from irithyll import preprocessing
    classification = build is not linear_model.LinearRegression
    implied = preprocessing.StandardScaler() | build()
    explicit = preprocessing.StandardScaler() | build(standardize=False)
    kept = preprocessing.StandardScaler() | build(standardize=True)
    assert implied[1].standardize is False and kept[1].standardize is True
    assert build().standardize is True
    assert (preprocessing.MinMaxScaler() | build())[1].standardize is True
    assert repr(implied) == f"StandardScaler() | {build.__name__}()"
    data = stream(600, seed=4, classification=classification)
    same = differ = 0
    for x, y in data:
        a, b, c = implied.predict_one(x), explicit.predict_one(x), kept.predict_one(x)
        same += a == b
        differ += a != c
        for m in (implied, explicit, kept):
            m.learn_one(x, y)
    assert same == len(data) and differ > 0
    assert ("standardize", "off") in [tuple(s) for s in implied[1]._model.settings()]
    copy = pickle.loads(pickle.dumps(implied))
    probe = {"a": 0.3, "b": 0.6, "c": 0.2}
    assert copy.predict_one(probe) == implied.predict_one(probe) and copy[1].standardize is False
    assert implied.clone()[1].standardize is False
