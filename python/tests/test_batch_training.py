"""learn_many's batch keywords: every=N with callback (after every N rows,
and once at the end for a partial block) gives the model one call gives;
subsample=k learns k rows drawn by reservoir sampling, in order, the same
for the same seed; bad keywords are refused by name."""
import pickle

import numpy as np
import pytest

from irithyll import _core, ensemble, linear_model


def _data(n=1003, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    return X, 3 * X[:, 0] - X[:, 1] ** 2


def test_cadence_and_the_same_model_as_one_call():
    X, y = _data()
    one, chunked = ensemble.SGBTRegressor(n_steps=5), ensemble.SGBTRegressor(n_steps=5)
    calls = []
    one.learn_many(X, y)
    chunked.learn_many(X, y, every=100, callback=calls.append)
    assert calls == list(range(100, 1001, 100)) + [1003]
    assert pickle.dumps(one) == pickle.dumps(chunked)
    calls.clear()
    linear_model.LinearRegression().learn_many(X[:1000], y[:1000], every=250, callback=calls.append)
    assert calls == [250, 500, 750, 1000]


def test_subsample_learns_the_reservoir_rows_in_order():
    X, y = _data()
    sampled = linear_model.LinearRegression(seed=5)
    sampled.learn_many(X, y, subsample=200)
    assert sampled.n_samples_seen == 200
    rows = np.asarray(_core.reservoir_indices(len(X), 200, 5))
    assert len(set(rows.tolist())) == 200 and list(rows) == sorted(rows)
    by_hand = linear_model.LinearRegression(seed=5)
    by_hand.learn_many(X[rows], y[rows])
    x = {0: 0.2, 1: 0.4, 2: 0.6}
    assert sampled.predict_one(x) == by_hand.predict_one(x)
    other = linear_model.LinearRegression(seed=6)
    other.learn_many(X, y, subsample=200)
    assert other.predict_one(x) != sampled.predict_one(x)
    # Classifiers too, with the cadence on top.
    c = ensemble.SGBTClassifier(n_steps=3)
    calls = []
    c.learn_many(X, y > 1, subsample=150, every=100, callback=calls.append)
    assert c.n_samples_seen == 150 and calls == [100, 150]


def test_classifier_chunks_with_weights_match_one_call():
    X, y = _data(517, seed=2)
    labels, w = y > 1, np.linspace(0.5, 2.0, len(y))
    one, chunked = ensemble.SGBTClassifier(n_steps=3), ensemble.SGBTClassifier(n_steps=3)
    calls = []
    one.learn_many(X, labels, sample_weight=w)
    chunked.learn_many(X, labels, sample_weight=w, every=64, callback=calls.append)
    assert calls == list(range(64, 513, 64)) + [517]
    assert pickle.dumps(one) == pickle.dumps(chunked)
    assert np.array_equal(one.predict_proba_many(X), chunked.predict_proba_many(X))


def test_subsample_with_the_default_seed_and_weights():
    X, y = _data(400, seed=3)
    w = np.linspace(1.0, 3.0, len(y))
    sampled, by_hand = linear_model.LinearRegression(), linear_model.LinearRegression()
    sampled.learn_many(X, y, sample_weight=w, subsample=60)
    rows = _core.reservoir_indices(len(X), 60, 42)
    by_hand.learn_many(X[rows], y[rows], sample_weight=w[rows])
    assert pickle.dumps(sampled) == pickle.dumps(by_hand)
    # More than there are: every row, as one call learns them.
    whole, one = linear_model.LinearRegression(), linear_model.LinearRegression()
    whole.learn_many(X, y, subsample=10_000)
    one.learn_many(X, y)
    assert pickle.dumps(whole) == pickle.dumps(one)


@pytest.mark.parametrize("kwargs, error, text", [
    ({"every": -1}, ValueError, "every=-1 must be an integer >= 0"),
    ({"every": 2.5}, ValueError, "every=2.5"),
    ({"every": 10}, TypeError, "needs a callable callback"),
    ({"every": 10, "callback": 3}, TypeError, "needs a callable callback"),
    ({"callback": print}, ValueError, "callback= needs every=N"),
    ({"subsample": 0}, ValueError, "subsample=0 must be an integer >= 1"),
    ({"subsample": "10"}, ValueError, "subsample='10'"),
])
def test_bad_keywords_are_named(kwargs, error, text):
    X, y = _data(50)
    m = linear_model.LinearRegression()
    with pytest.raises(error, match=text):
        m.learn_many(X, y, **kwargs)
    assert m.n_samples_seen == 0


def _frame(n=403, seed=2):
    pd = pytest.importorskip("pandas")
    X, y = _data(n, seed)
    return pd.DataFrame(X, columns=["a", "b", "c"]), pd.Series(y)


def _pipeline(seed=7):
    from irithyll import preprocessing
    return preprocessing.StandardScaler() | linear_model.LinearRegression(seed=seed)


def test_pipeline_subsample_reaches_every_step():
    X, y = _frame()
    sampled, by_hand = _pipeline(), _pipeline()
    sampled.learn_many(X, y, subsample=120)
    rows = np.asarray(_core.reservoir_indices(len(X), 120, 7))
    by_hand.learn_many(X.iloc[rows], y.iloc[rows])
    probe = X.iloc[:20]
    assert list(sampled.predict_many(probe)) == list(by_hand.predict_many(probe))
    # The scaler learned the sampled rows only, not the whole frame.
    scaler = sampled.steps["StandardScaler"]
    assert scaler.transform_one(X.iloc[0].to_dict()) == by_hand.steps["StandardScaler"].transform_one(
        X.iloc[0].to_dict())
    whole = _pipeline()
    whole.learn_many(X, y)
    assert scaler.transform_one(X.iloc[0].to_dict()) != whole.steps["StandardScaler"].transform_one(
        X.iloc[0].to_dict())


def test_pipeline_chunks_go_through_every_step():
    X, y = _frame()
    chunked, by_hand = _pipeline(), _pipeline()
    calls = []
    w = np.linspace(0.5, 1.5, len(X))
    chunked.learn_many(X, y, every=100, callback=calls.append, sample_weight=w)
    assert calls == [100, 200, 300, 400, 403]
    for start in range(0, len(X), 100):
        part = slice(start, min(start + 100, len(X)))
        by_hand.learn_many(X.iloc[part], y.iloc[part], sample_weight=w[part])
    probe = X.iloc[:20]
    assert list(chunked.predict_many(probe)) == list(by_hand.predict_many(probe))
    with pytest.raises(TypeError, match="Pipeline.learn_many: every=10 needs a callable"):
        chunked.learn_many(X, y, every=10)


def test_multi_target_batch_keywords():
    pd = pytest.importorskip("pandas")
    from irithyll import multioutput
    X, y = _frame(n=205)
    Y = pd.DataFrame({"u": y, "v": 2 * y})
    chunked = multioutput.MultiTargetSGBTRegressor(n_steps=4, grace_period=30, seed=3)
    calls = []
    chunked.learn_many(X, Y, every=50, callback=calls.append)
    assert calls == [50, 100, 150, 200, 205]
    sampled = multioutput.MultiTargetSGBTRegressor(n_steps=4, grace_period=30, seed=3)
    sampled.learn_many(X, Y, subsample=60)
    by_hand = multioutput.MultiTargetSGBTRegressor(n_steps=4, grace_period=30, seed=3)
    for r in _core.reservoir_indices(len(X), 60, 3):
        by_hand.learn_one(X.iloc[r].to_dict(), Y.iloc[r].to_dict())
    assert pickle.dumps(sampled) == pickle.dumps(by_hand)
    with pytest.raises(ValueError, match="subsample=0 must be an integer >= 1"):
        sampled.learn_many(X, Y, subsample=0)
