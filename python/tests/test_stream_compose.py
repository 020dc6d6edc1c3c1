"""iter_csv, StandardScaler, Pipeline, progressive_val_score and the batch paths."""
import math
import pickle

import numpy as np
import pytest

from irithyll import compose, ensemble, evaluate, metrics, nn, preprocessing, stream
from conftest import need_module
from conftest import stream as make_stream


def test_iter_csv(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("a,b,kind,label\n1,2.5,x,up\n3,,y,down\n")
    rows = list(stream.iter_csv(p, target="label"))
    assert rows == [({"a": 1.0, "b": 2.5, "kind": "x"}, "up"), ({"a": 3.0, "kind": "y"}, "down")]
    rows = list(stream.iter_csv(p, target="a", drop=["kind"], converters={"b": lambda t: t or "?"}))
    assert rows[1] == ({"b": "?", "label": "down"}, 3)
    with pytest.raises(ValueError, match="no column 'nope'"):
        list(stream.iter_csv(p, target="nope"))


def test_standard_scaler():
    s = preprocessing.StandardScaler()
    for v in (1.0, 2.0, 3.0):
        s.learn_one({"a": v, "k": "text"})
    assert s.transform_one({"a": 2.0})["a"] == 0.0
    assert s.transform_one({"a": 3.0})["a"] == pytest.approx(1.0 / math.sqrt(2.0 / 3.0))
    assert s.transform_one({"new": 5.0}) == {"new": 0.0}
    assert s.transform_one({"a": math.nan})["a"] != s.transform_one({"a": math.nan})["a"]  # NaN passes


def test_pipeline_and_progressive_val_score(capsys):
    model = preprocessing.StandardScaler() | ensemble.SGBTClassifier(n_steps=5, grace_period=20,
                                                                      learning_rate=0.3, seed=2)
    assert isinstance(model, compose.Pipeline)
    assert repr(model) == "StandardScaler() | SGBTClassifier(n_steps=5, grace_period=20, learning_rate=0.3, seed=2)"
    metric = evaluate.progressive_val_score(make_stream(300), model, metrics.Accuracy(), print_every=100,
                                            show_time=True, show_memory=True)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("[100] Accuracy: ") and "KiB" in lines[0]
    assert metric.n == 299 and metric.get() > 0.6  # the first sample has no prediction
    copy = pickle.loads(pickle.dumps(model))
    x = make_stream(1, seed=5)[0][0]
    assert copy.predict_proba_one(x) == model.predict_proba_one(x)
    ll = evaluate.progressive_val_score(make_stream(100), preprocessing.StandardScaler() | nn.ESNClassifier(),
                                        metrics.LogLoss())
    assert math.isfinite(ll.get())


def test_batch_equals_one_at_a_time():
    data = make_stream(400, classification=False)
    X = np.array([[x["a"], x["b"], x["c"]] for x, _ in data])
    y = np.array([t for _, t in data])
    one = ensemble.SGBTRegressor(n_steps=10, grace_period=20)
    for row, t in zip(X, y):
        one.learn_one({0: row[0], 1: row[1], 2: row[2]}, t)
    many = ensemble.SGBTRegressor(n_steps=10, grace_period=20)
    many.learn_many(X, y)
    np.testing.assert_array_equal(many.predict_many(X), [one.predict_one({0: a, 1: b, 2: c}) for a, b, c in X])
    with pytest.raises(ValueError, match="columns"):
        many.predict_many(X[:, :2])
    with pytest.raises(ValueError, match="one value per row"):
        many.learn_many(X, y[:3])


def test_classifier_batch_labels():
    X = np.random.default_rng(1).random((300, 2))
    y = np.where(X[:, 0] > 0.5, "hi", "lo")
    m = ensemble.SGBTClassifier(n_steps=10, grace_period=20, learning_rate=0.1)
    m.learn_many(X, y)
    proba = m.predict_proba_many(X)
    assert proba.shape == (300, 2) and np.allclose(proba.sum(axis=1), 1.0)
    assert (m.predict_many(X) == y).mean() > 0.8
    assert set(m.predict_many(X[:5])) <= {"hi", "lo"}


def test_predict_learn_many_is_the_prequential_loop():
    X = np.random.default_rng(2).random((300, 2))
    y = np.where(X[:, 0] > 0.5, 1, 0)
    fused = ensemble.SGBTClassifier(n_steps=10, grace_period=20, learning_rate=0.1, classes=[0, 1])
    loop = ensemble.SGBTClassifier(n_steps=10, grace_period=20, learning_rate=0.1, classes=[0, 1])
    expected = []
    for row, t in zip(X, y):
        x = {0: row[0], 1: row[1]}
        expected.append(loop.predict_one(x))
        loop.learn_one(x, t)
    assert list(fused.predict_learn_many(X, y)) == expected
    reg = ensemble.SGBTRegressor(n_steps=5)
    assert reg.predict_learn_many(X, X[:, 0]).shape == (300,)


class Frame:
    """The two things the batch paths use from a pandas DataFrame."""

    def __init__(self, columns, values):
        self.columns = columns
        self._values = np.asarray(values, dtype=np.float64)

    def to_numpy(self, dtype=None):
        return self._values.astype(dtype) if dtype else self._values


def test_dataframe_columns_name_features():
    X = np.random.default_rng(4).random((200, 2))
    m = ensemble.SGBTRegressor(n_steps=5, grace_period=20, learning_rate=0.1)
    m.learn_many(Frame(["u", "v"], X), X[:, 0])
    assert m.features == ["u", "v"]
    swapped = m.predict_many(Frame(["v", "u"], X[:, ::-1]))
    np.testing.assert_array_equal(swapped, m.predict_many(X))
    assert m.predict_one({"u": X[0, 0], "v": X[0, 1]}) == m.predict_many(X[:1])[0]


def test_real_pandas_when_importable():
    pd = pytest.importorskip("pandas", reason="pandas not installed (optional: Debian python3-pandas)")
    df = pd.DataFrame({"u": [0.1, 0.9] * 50, "v": [1.0, 2.0] * 50})
    m = ensemble.SGBTClassifier(n_steps=3, grace_period=20)
    m.learn_many(df, ["a", "b"] * 50)
    assert m.features == ["u", "v"] and m.predict_proba_many(df).shape == (100, 2)


def test_top_level_names():
    import irithyll
    assert irithyll.PackedModel is irithyll.packed.PackedModel
    assert callable(irithyll.load)


def test_learning_curve_records_metric_and_drifts():
    from irithyll.drift.binary import DDM
    # Labels flip meaning halfway: the error rate jumps and DDM fires.
    data = [(x, ("up" if y == "down" else "down") if i >= 600 else y) for i, (x, y) in enumerate(make_stream(1200))]
    model = ensemble.SGBTClassifier(n_steps=10, grace_period=20, learning_rate=0.3)
    curve = evaluate.learning_curve(data, model, metrics.Accuracy(), step=250, drift_detector=DDM())
    assert curve["n"] == [250, 500, 750, 1000, 1200] and curve["metric"] == "Accuracy"
    assert len(curve["value"]) == 5 and curve["drifts"] and min(curve["drifts"]) > 600
    with pytest.raises(ValueError, match="step"):
        evaluate.learning_curve(data, model, metrics.Accuracy(), step=0)


def test_plot_learning_curve(tmp_path):
    need_module("matplotlib", "python3-matplotlib")
    from irithyll import plot
    ax = plot.learning_curve({"n": [1, 2], "value": [0.5, 0.6], "metric": "Accuracy", "drifts": [1]})
    ax.figure.savefig(tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 0
