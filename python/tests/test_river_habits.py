"""Code written the way River's users write it: their module names,
parameter names, metrics, streams and pipelines."""
import gzip
import io
import math
import os
import pickle
import random

import pytest

from conftest import need_module
from irithyll import compose, datasets, evaluate, forest, linear_model, metrics, preprocessing, stream, tree, utils
from irithyll.datasets import synth


# --- text features and growing classes --------------------------------------------------
def test_text_features_like_agrawal():
    """A text column (elevel spelt out) is learned as a category, with no hand encoding."""
    names = ["none", "high-school", "bachelor", "master", "phd"]
    codes = list(synth.Agrawal(classification_function=2, seed=3).take(4000))
    data = [({**x, "elevel": names[x["elevel"]]}, y) for x, y in codes]
    model = tree.HoeffdingTreeClassifier()
    metric = evaluate.progressive_val_score(data, model, metrics.Accuracy())
    as_numbers = evaluate.progressive_val_score(codes, tree.HoeffdingTreeClassifier(), metrics.Accuracy())
    # 0.82 against 0.66 with the codes read as numbers (deterministic stream and model)
    assert metric.get() > 0.75 and metric.get() > as_numbers.get() + 0.1, (metric, as_numbers)
    # the text column became the model's categorical feature
    assert ("categorical-features", str(list(data[0][0]).index("elevel"))) in model._built_with
    again = pickle.loads(pickle.dumps(model))
    assert [again.predict_one(x) for x, _ in data[:200]] == [model.predict_one(x) for x, _ in data[:200]]


def test_text_codes_survive_save_and_load(tmp_path):
    import irithyll
    model = tree.HoeffdingTreeClassifier(grace_period=20)
    rng = random.Random(1)
    for _ in range(500):
        c = rng.choice(["red", "green", "blue"])
        model.learn_one({"colour": c, "v": rng.random()}, c == "red")
    model.save(tmp_path / "m.irm")
    loaded = irithyll.load(tmp_path / "m.irm")
    for c in ("red", "green", "blue"):
        assert loaded.predict_one({"colour": c, "v": 0.5}) == model.predict_one({"colour": c, "v": 0.5}) == (c == "red")


def test_dataframes_with_text_columns():
    pd = need_module("pandas", "python3-pandas")
    names = ["none", "high-school", "bachelor", "master", "phd"]
    rows = list(synth.Agrawal(classification_function=2, seed=3).take(3000))
    X = pd.DataFrame([{**x, "elevel": names[x["elevel"]]} for x, _ in rows])
    y = pd.Series([t for _, t in rows])
    batch = tree.HoeffdingTreeClassifier()
    predicted = batch.predict_learn_many(X, y)
    loop = tree.HoeffdingTreeClassifier()
    one = []
    for x, t in stream.iter_pandas(X, y):
        one.append(loop.predict_one(x))
        loop.learn_one(x, t)
    assert list(predicted[1:]) == one[1:]  # the same model, fed by frame or by dict
    assert list(batch.predict_many(X.head(50))) == [loop.predict_one(x) for x, _ in stream.iter_pandas(X.head(50))]
    with pytest.raises(ValueError, match="no column 'age'"):
        batch.predict_many(X.rename(columns={"age": "agee"}))


def test_classes_appear_mid_stream():
    """River's learners take a new class at any time; so do ours, keeping what they learned."""
    rng = random.Random(0)
    model = forest.ARFClassifier(n_models=3, seed=1)
    right = total = 0
    for i in range(6000):
        k = min(i // 1000, 4)  # class k appears after k thousand samples
        y = rng.randrange(k + 1)
        x = {"a": y + rng.gauss(0, 0.2), "b": rng.random()}
        if i % 1000 > 500:
            total += 1
            right += model.predict_one(x) == y
        model.learn_one(x, y)
    assert model.labels == [0, 1, 2, 3, 4]
    assert right / total > 0.8, right / total
    fixed = tree.HoeffdingTreeClassifier(classes=["a", "b"])
    fixed.learn_one({"x": 1.0}, "a")
    with pytest.raises(ValueError, match="classes"):
        fixed.learn_one({"x": 1.0}, "c")


def test_many_labels_in_metrics():
    metric = metrics.Accuracy()
    for i in range(500):
        metric.update(i, i if i % 2 else -1)
    assert metric.get() == pytest.approx(0.5)


# --- River's parameter names ----------------------------------------------------------
def test_river_parameter_names():
    m = forest.ARFClassifier(n_models=5, max_depth=None, split_criterion="info_gain", leaf_prediction="mc",
                             grace_period=50, delta=0.01, tau=0.05, seed=1)
    assert m.n_trees == 5 and m.split_criterion == "info-gain" and m.leaf_model == "mc" and m.tie_threshold == 0.05
    t = tree.HoeffdingTreeClassifier(nominal_attributes=["colour"], grace_period=10)
    t.learn_one({"v": 1.0, "colour": 3.0}, "x")
    assert ("categorical-features", "1") in t._built_with
    with pytest.raises(ValueError, match="nominal_attributes"):
        tree.HoeffdingTreeClassifier(nominal_attributes=["nope"]).learn_one({"v": 1.0}, "x")
    with pytest.raises(TypeError, match="must be a number"):
        tree.HoeffdingTreeClassifier(grace_period="10")
    with pytest.raises(TypeError, match="River passes a model"):
        tree.HoeffdingTreeRegressor(leaf_prediction=linear_model.LinearRegression())
    with pytest.raises(ValueError, match="sqrt"):
        forest.ARFClassifier(max_features="sqrt")
    assert tree.HoeffdingTreeRegressor(leaf_prediction="adaptive").leaf_model == "adaptive"
    assert tree.HoeffdingTreeRegressor().leaf_model == "adaptive"  # River's default
    from irithyll import ensemble, neighbors, optim
    assert ensemble.LeveragingBaggingClassifier(n_models=3, w=4.0).lambda_ == 4.0
    # River's model=: our learners (and StandardScaler) become the base-model text.
    lb = ensemble.LeveragingBaggingClassifier(
        model=preprocessing.StandardScaler() | linear_model.LogisticRegression(l2=0.001), n_models=3, seed=1)
    # (a learner right after StandardScaler defaults to standardize=False)
    assert lb.base_model == "standard_scaler|logistic_regression(standardize=off;l2=0.001)"
    rng = random.Random(3)
    right = 0
    for i in range(600):
        x = {"a": rng.random(), "b": rng.random()}
        y = x["a"] + x["b"] > 1.0
        right += lb.predict_one(x) == y
        lb.learn_one(x, y)
    assert right > 480  # a linear concept without noise: logistic members learn it
    again = pickle.loads(pickle.dumps(lb))
    x = {"a": 0.2, "b": 0.3}
    assert again.predict_proba_one(x) == lb.predict_proba_one(x)
    with pytest.raises(TypeError, match="StandardScaler or one of irithyll's learners"):
        ensemble.LeveragingBaggingClassifier(model=object())
    with pytest.raises(ValueError, match="does not support classification"):
        ensemble.LeveragingBaggingClassifier(model=linear_model.LinearRegression()).learn_one({"a": 1.0}, True)
    assert neighbors.KNNClassifier(weighted=False).weighting == "uniform"
    lr = linear_model.LogisticRegression(optimizer=optim.SGD(0.1), l2=0.001)
    assert lr.optimizer == "sgd" and lr.learning_rate == 0.1 and lr.l2 == 0.001
    assert linear_model.LinearRegression(optimizer=optim.Adam()).learning_rate == 0.1


# --- metrics ----------------------------------------------------------------------------
def test_metrics_match_scikit_learn():
    sk = need_module("sklearn.metrics", "python3-sklearn")
    rng = random.Random(4)
    y_true = [rng.random() < 0.4 for _ in range(300)]
    y_pred = [t if rng.random() < 0.7 else not t for t in y_true]
    checks = [(metrics.Accuracy(), sk.accuracy_score), (metrics.F1(), sk.f1_score),
              (metrics.Precision(), sk.precision_score), (metrics.Recall(), sk.recall_score),
              (metrics.BalancedAccuracy(), sk.balanced_accuracy_score), (metrics.CohenKappa(), sk.cohen_kappa_score),
              (metrics.MacroF1(), lambda a, b: sk.f1_score(a, b, average="macro")),
              (metrics.WeightedF1(), lambda a, b: sk.f1_score(a, b, average="weighted")),
              (metrics.MCC(), sk.matthews_corrcoef)]
    for metric, reference in checks:
        for t, p in zip(y_true, y_pred):
            metric.update(t, p)
        assert metric.get() == pytest.approx(reference(y_true, y_pred)), type(metric).__name__
    yt = [rng.gauss(5, 2) for _ in range(200)]
    yp = [t + rng.gauss(0, 1) for t in yt]
    for metric, reference in [(metrics.MAE(), sk.mean_absolute_error), (metrics.MSE(), sk.mean_squared_error),
                              (metrics.RMSE(), lambda a, b: math.sqrt(sk.mean_squared_error(a, b))),
                              (metrics.R2(), sk.r2_score),
                              (metrics.MAPE(), lambda a, b: 100 * sk.mean_absolute_percentage_error(a, b))]:
        for t, p in zip(yt, yp):
            metric.update(t, p)
        assert metric.get() == pytest.approx(reference(yt, yp)), type(metric).__name__


def test_binary_f1_is_rivers():
    metric = metrics.F1()
    for t, p in zip([True, False, True, True], [True, True, False, True]):
        metric.update(t, p)
    assert metric.get() == pytest.approx(2 / 3)
    assert str(metric) == "F1: 66.67%"


def test_metrics_group_revert_rolling_and_reprs():
    metric = metrics.Accuracy() + metrics.CohenKappa()
    assert isinstance(metric, metrics.Metrics)
    for t, p in [(1, 1), (0, 1), (1, 1), (0, 0)]:
        metric.update(t, p)
    assert str(metric) == "Accuracy: 75.00%, CohenKappa: 50.00%"
    metric.revert(0, 1)
    assert metric.get()[0] == 1.0
    assert str(metrics.MAE()) == "MAE: 0.000000"
    rolling = utils.Rolling(metrics.MAE(), window_size=2)
    for t, p in [(0, 10), (1, 2), (1, 1)]:
        rolling.update(t, p)
    assert rolling.get() == pytest.approx(0.5)
    with pytest.raises(TypeError, match="must be a number, not None"):
        metrics.MAE().update(1.0, None)
    cm = metrics.ConfusionMatrix()
    for t, p in [("a", "a"), ("a", "b"), ("b", "b")]:
        cm.update(t, p)
    assert cm["a"]["b"] == 1 and cm["b"]["b"] == 1
    report = metrics.ClassificationReport()
    report.update("a", "a")
    assert "Precision" in str(report)


def test_rocauc_and_logloss_use_probabilities():
    auc, ll = metrics.ROCAUC(), metrics.LogLoss()
    for t, p in [(True, 0.9), (False, 0.2), (True, 0.7), (False, 0.4)]:
        auc.update(t, {True: p, False: 1 - p})
        ll.update(t, {True: p, False: 1 - p})
    assert auc.get() == pytest.approx(1.0)
    assert not (metrics.ROCAUC() + metrics.LogLoss()).requires_labels
    assert ll.get() == pytest.approx(-(math.log(0.9) + math.log(0.8) + math.log(0.7) + math.log(0.6)) / 4)


# --- streams and datasets ------------------------------------------------------------------
CSV = "date,kind,a,b,y\n2020-01-01,x,1,2,3\n2020-01-02,z,,4,5\n"


def test_iter_csv_options(tmp_path):
    rows = list(stream.iter_csv(io.StringIO(CSV), target="y", parse_dates={"date": "%Y-%m-%d"}, drop=["b"],
                                converters={"a": lambda s: float(s) if s else None}, drop_nones=True))
    assert rows[0][0]["date"].day == 1 and rows[0][0]["kind"] == "x" and rows[0][1] == 3
    assert "a" not in rows[1][0] and "b" not in rows[0][0]
    path = tmp_path / "t.csv.gz"
    with gzip.open(path, "wt") as f:
        f.write(CSV)
    multi = list(stream.iter_csv(path, target=["a", "y"]))
    assert multi[0][1] == {"a": 1, "y": 3}
    with gzip.open(path, "rb") as binary:  # a file object of bytes
        assert [y for _, y in stream.iter_csv(binary, target="y")] == [3, 5]
    few = list(stream.iter_csv(io.StringIO("a\n" + "1\n" * 1000), fraction=0.1, seed=1))
    assert 50 < len(few) < 150
    with pytest.raises(ValueError, match="no column 'nope'"):
        list(stream.iter_csv(io.StringIO(CSV), target="nope"))


def test_iter_pandas_and_array():
    pd = need_module("pandas", "python3-pandas")
    X = pd.DataFrame({"a": [1.0, 2.0], "b": ["u", "v"]})
    y = pd.Series([True, False])
    assert list(stream.iter_pandas(X, y)) == [({"a": 1.0, "b": "u"}, True), ({"a": 2.0, "b": "v"}, False)]
    assert list(stream.iter_array([[1, 2]], [0], feature_names=["p", "q"])) == [({"p": 1, "q": 2}, 0)]


def test_datasets_read_local_files_only(tmp_path, monkeypatch):
    monkeypatch.delenv("IRITHYLL_DATASETS", raising=False)
    with pytest.raises(FileNotFoundError, match="nothing is downloaded"):
        datasets.Elec2()
    (tmp_path / "elec8.csv").write_text("date,day,period,nswprice,nswdemand,vicprice,vicdemand,transfer,class\n"
                                        "0,2,0,0.05,0.4,0.003,0.42,0.41,UP\n0,2,0.02,0.05,0.4,0.003,0.42,0.41,DOWN\n")
    monkeypatch.setenv("IRITHYLL_DATASETS", str(tmp_path))
    rows = list(datasets.Elec2())
    assert [y for _, y in rows] == [True, False] and len(rows[0][0]) == 8


def test_synth_generators_are_seeded_and_learnable():
    assert list(synth.SEA(variant=1, seed=7).take(50)) == list(synth.SEA(variant=1, seed=7).take(50))
    for gen, model, metric, bar in [
            (synth.SEA(seed=1), tree.HoeffdingTreeClassifier(), metrics.Accuracy(), 0.9),
            (synth.Hyperplane(seed=1, noise_percentage=0.0), linear_model.LogisticRegression(), metrics.Accuracy(),
             0.8),
            (synth.RandomRBF(seed_model=1, seed_sample=1), tree.HoeffdingTreeClassifier(), metrics.Accuracy(), 0.6),
            (synth.Friedman(seed=1), preprocessing.StandardScaler() | linear_model.LinearRegression(),
             metrics.R2(), 0.5)]:
        score = evaluate.progressive_val_score(gen.take(4000), model, metric).get()
        assert score > bar, (gen, score)


# --- compose ----------------------------------------------------------------------------
def test_pipeline_idioms():
    pd = need_module("pandas", "python3-pandas")
    model = compose.Pipeline(("drop", compose.Discard("noise")), ("scale", preprocessing.StandardScaler()),
                             ("tree", tree.HoeffdingTreeClassifier()))
    assert model["scale"] is model[1] and isinstance(model["tree"], tree.HoeffdingTreeClassifier)
    plain = preprocessing.StandardScaler() | tree.HoeffdingTreeClassifier()
    assert isinstance(plain["StandardScaler"], preprocessing.StandardScaler) and len(plain) == 2
    assert isinstance(tree.HoeffdingTreeClassifier().__ror__(compose.Select("a")), compose.Pipeline)

    def add_sum(x):
        return {**x, "s": x["a"] + x["b"]}

    piped = add_sum | preprocessing.StandardScaler() | linear_model.LogisticRegression()
    assert repr(piped).startswith("add_sum | StandardScaler()")
    union = compose.Select("a") + compose.FuncTransformer(lambda x: {"b2": x["b"] * 2})
    assert union.transform_one({"a": 1.0, "b": 2.0, "c": 3.0}) == {"a": 1.0, "b2": 4.0}
    rng = random.Random(2)
    data = [({"a": rng.random(), "b": rng.random(), "noise": rng.random()}, None) for _ in range(400)]
    data = [(x, x["a"] + x["b"] > 1) for x, _ in data]
    for x, y in data:
        model.learn_one(x, y)
        piped.learn_one(x, y)
    assert sum(piped.predict_one(x) == y for x, y in data) > 300
    X = pd.DataFrame([x for x, _ in data])
    y = pd.Series([t for _, t in data])
    batch = compose.Select("a", "b") | tree.HoeffdingTreeClassifier()
    batch.learn_many(X, y)
    assert len(batch.predict_many(X)) == len(X)
    assert list(compose.Discard("noise").transform_many(X).columns) == ["a", "b"]
    one_hot = preprocessing.OneHotEncoder()
    one_hot.learn_one({"c": "u"})
    assert one_hot.transform_one({"c": "u", "n": 1.0}) == {"c_u": 1, "n": 1.0}


def test_intervals_and_diagnostics():
    from irithyll import ensemble
    model = ensemble.DistributionalSGBTRegressor(n_steps=10, grace_period=20, seed=1)
    plain = linear_model.LinearRegression()
    inside = 0
    for i, (x, y) in enumerate(synth.Friedman(seed=2).take(3000)):
        if i > 2000:
            lo, hi = model.predict_interval_one(x, level=0.8)
            inside += lo <= y <= hi
        model.learn_one(x, y)
        plain.learn_one(x, y)
    assert 0.6 < inside / 999 < 0.95, inside / 999  # about 0.8 of the points
    with pytest.raises(ValueError, match="conformal.Interval"):
        plain.predict_interval_one({0: 1.0})
    d = model.diagnostics()
    assert d["n_samples_seen"] == 3000 and d["memory_bytes"] > 0
