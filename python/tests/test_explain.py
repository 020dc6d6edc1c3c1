"""explain_one / explain_many (TreeSHAP): contributions add up to the raw
prediction, by feature name; classes; DataFrames; models without trees."""
import math

import pytest

from irithyll import ensemble, nn, tree
from conftest import need_module, stream


def trained(cls, classification, n=800, **kw):
    model = cls(seed=1, **kw)
    for x, y in stream(n, seed=4, classification=classification):
        model.learn_one(x, y)
    return model


def test_explain_one_sums_to_the_regression_prediction():
    model = trained(ensemble.SGBTRegressor, False, n_steps=10, grace_period=50)
    x = {"a": 0.9, "b": 0.1, "c": 0.5}
    e = model.explain_one(x)
    assert set(e) == {"base", "contributions", "raw"}
    assert list(e["contributions"]) == ["a", "b", "c"]
    total = e["base"] + sum(e["contributions"].values())
    assert math.isclose(total, e["raw"], abs_tol=1e-9)
    assert math.isclose(e["raw"], model.predict_one(x), abs_tol=1e-9)  # squared loss: raw = prediction
    assert abs(e["contributions"]["a"]) > abs(e["contributions"]["c"])  # y = 2a - b + 0.1c
    missing = model.explain_one({"a": 0.9})  # absent features are missing values
    assert math.isclose(missing["base"] + sum(missing["contributions"].values()), missing["raw"], abs_tol=1e-9)


def test_classifier_names_the_class():
    model = trained(tree.HoeffdingTreeClassifier, True, n=2000, grace_period=50, leaf_model="mc")
    e = model.explain_one({"a": 0.9, "b": 0.8, "c": 0.1})
    assert e["class"] in ("up", "down")
    assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
    other = model.explain_one({"a": 0.9, "b": 0.8, "c": 0.1}, cls="down")
    assert other["class"] == "down"
    binary = trained(ensemble.SGBTClassifier, True, n_steps=5)
    assert binary.explain_one({"a": 0.2, "b": 0.1, "c": 0.1})["class"] == binary._labels[1]


def test_explain_many_list_and_dataframe():
    model = trained(ensemble.SGBTRegressor, False, n_steps=5)
    rows = [x for x, _ in stream(5, seed=9, classification=False)]
    import numpy as np
    matrix = np.array([[r["a"], r["b"], r["c"]] for r in rows])
    out = model.explain_many(matrix)
    assert isinstance(out, list) and len(out) == 5
    assert out[0] == model.explain_one(rows[0])
    pd = need_module("pandas", "python3-pandas")
    frame = model.explain_many(pd.DataFrame(rows)[["c", "a", "b"]])  # by column name, any order
    assert list(frame.columns) == ["base", "a", "b", "c", "raw"]
    assert math.isclose(frame["a"].iloc[0], out[0]["contributions"]["a"], abs_tol=1e-12)


def test_models_without_trees_are_refused_by_name():
    model = trained(nn.ESNRegressor, False, n=50) if hasattr(nn, "ESNRegressor") else None
    if model is None:
        pytest.skip("no ESNRegressor class in this build")
    with pytest.raises((ValueError, NotImplementedError), match="esn"):
        model.explain_one({"a": 0.1, "b": 0.2, "c": 0.3})


def test_interventional_against_a_background():
    model = trained(ensemble.SGBTRegressor, False, n_steps=8, grace_period=50)
    background = [x for x, _ in stream(20, seed=13, classification=False)]
    x = {"a": 0.7, "b": 0.3, "c": 0.9}
    e = model.explain_one(x, background=background)
    assert set(e) == {"base", "contributions", "raw"}
    mean = sum(model.predict_one(r) for r in background) / len(background)
    assert math.isclose(e["base"], mean, abs_tol=1e-9)  # squared loss: raw = prediction
    assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
    assert math.isclose(e["raw"], model.predict_one(x), abs_tol=1e-9)
    # One background row r: Shapley values of f(x_S, r_rest); with x = r nothing moves.
    same = model.explain_one(background[0], background=[background[0]])
    assert all(abs(v) < 1e-12 for v in same["contributions"].values())
    pd = need_module("pandas", "python3-pandas")
    frame = model.explain_many(pd.DataFrame([x, background[1]]), background=pd.DataFrame(background))
    assert math.isclose(frame["a"].iloc[0], e["contributions"]["a"], abs_tol=1e-12)
    with pytest.raises(ValueError, match="background"):
        model.explain_one(x, background=[[1.0, 2.0]])


def test_srp_leveraging_bagging_and_distributional_location():
    # Majority-class leaves: the trees hold exactly the class shares the
    # vote combines, so raw is the predicted probability.
    x = {"a": 0.8, "b": 0.4, "c": 0.3}
    for cls in (ensemble.SRPClassifier, ensemble.LeveragingBaggingClassifier):
        model = trained(cls, True, n=2000, n_models=3, grace_period=50, leaf_model="mc")
        e = model.explain_one(x, cls="up")
        assert e["class"] == "up"
        assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
        assert math.isclose(e["raw"], model.predict_proba_one(x)["up"], abs_tol=1e-9)
    with pytest.raises(Exception, match="leaf-model mean"):  # the default adaptive leaves may be linear
        trained(ensemble.SRPRegressor, False, n=300, n_models=3, grace_period=50).explain_one(x)
    srp = trained(ensemble.SRPRegressor, False, n=1500, n_models=3, grace_period=50, leaf_model="mean")
    e = srp.explain_one(x)
    assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
    assert math.isclose(e["raw"], srp.predict_one(x), abs_tol=1e-9)  # the members' mean
    dist = trained(ensemble.DistributionalSGBTRegressor, False, n_steps=6, grace_period=50)
    e = dist.explain_one(x)
    assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
    assert math.isclose(e["raw"], dist.predict_one(x), abs_tol=1e-9)  # the location mu(x)


def test_quantile_sgbt_explains_its_median_quantile():
    # predict_one is the quantile nearest 0.5; explain_one explains it (before
    # the quantiles are made non-crossing, which changes nothing here).
    model = trained(ensemble.QuantileSGBTRegressor, False, n=2000, n_steps=6, grace_period=50)
    x = {"a": 0.7, "b": 0.2, "c": 0.6}
    e = model.explain_one(x)
    assert math.isclose(e["base"] + sum(e["contributions"].values()), e["raw"], abs_tol=1e-9)
    assert math.isclose(e["raw"], model.predict_one(x), abs_tol=1e-9)
