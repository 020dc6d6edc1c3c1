"""River's documented examples that run on River's own generators, so they
need no data files: each runs River's code with our classes in place of
River's (River's parameters as written: "same"), and with our defaults in
River's place ("defaults"). Ours must reach River's printed figure at the
precision River prints it. Our datasets.synth draws River's samples for a
seed (test_synth_drift.py checks the documented samples), so both libraries
see the same stream. Known shortfalls are strict xfails naming the cause,
so one that starts passing fails until its mark is removed. Every stream
and model is seeded: no test here can fail by chance."""
import pytest

from irithyll import ensemble, evaluate, forest, metrics, tree
from irithyll.datasets import synth


def _agrawal():
    return iter(synth.Agrawal(classification_function=0, seed=42).take(1000))


def _sea_drift():
    return iter(synth.ConceptDriftStream(stream=synth.SEA(seed=42, variant=0),
                                         drift_stream=synth.SEA(seed=42, variant=1),
                                         seed=1, position=500, width=50).take(1000))


def _agrawal_drift(width):
    return synth.ConceptDriftStream(seed=42, position=500, width=width).take(1000)


def _friedman_drift():
    return synth.FriedmanDrift(drift_type="gsg", position=(350, 750), transition_window=200, seed=42).take(1000)


# key: (River's figure, metric, data, {variant: model builder}); accuracy in percent.
EXAMPLES = {
    "tree.HoeffdingTreeClassifier-Agrawal": (84.58, metrics.Accuracy, _agrawal, {
        "same": lambda: tree.HoeffdingTreeClassifier(grace_period=100, delta=1e-5,
                                                     nominal_attributes=["elevel", "car", "zipcode"]),
        "defaults": lambda: tree.HoeffdingTreeClassifier()}),
    "tree.HoeffdingAdaptiveTreeClassifier-SEA drift": (91.49, metrics.Accuracy, _sea_drift, {
        "same": lambda: tree.HoeffdingAdaptiveTreeClassifier(grace_period=100, delta=1e-5, leaf_prediction="nb",
                                                             nb_threshold=10, seed=0),
        "defaults": lambda: tree.HoeffdingAdaptiveTreeClassifier()}),
    "tree.ExtremelyFastDecisionTreeClassifier-Agrawal": (87.29, metrics.Accuracy, _agrawal, {
        "same": lambda: tree.ExtremelyFastDecisionTreeClassifier(grace_period=100, delta=1e-5,
                                                                 nominal_attributes=["elevel", "car", "zipcode"],
                                                                 min_samples_reevaluate=100),
        "defaults": lambda: tree.ExtremelyFastDecisionTreeClassifier()}),
    "forest.ARFClassifier-Agrawal drift": (71.07, metrics.Accuracy, lambda: _agrawal_drift(40), {
        "same": lambda: forest.ARFClassifier(seed=8, leaf_prediction="mc"),
        "defaults": lambda: forest.ARFClassifier()}),
    "ensemble.SRPClassifier-Agrawal drift": (72.77, metrics.Accuracy, lambda: _agrawal_drift(50), {
        "same": lambda: ensemble.SRPClassifier(
            model=tree.HoeffdingTreeClassifier(grace_period=50, delta=0.01,
                                               nominal_attributes=["age", "car", "zipcode"]),
            n_models=3, seed=42),
        "defaults": lambda: ensemble.SRPClassifier()}),
    "ensemble.SRPRegressor-FriedmanDrift": (0.571117, metrics.R2, _friedman_drift, {
        "same": lambda: ensemble.SRPRegressor(model=tree.HoeffdingTreeRegressor(grace_period=50),
                                              training_method="patches", n_models=3, seed=42),
        "defaults": lambda: ensemble.SRPRegressor()}),
}

# (example, variant) -> why ours is short of River's figure.
KNOWN = {
    ("tree.HoeffdingAdaptiveTreeClassifier-SEA drift", "same"):
        "91.09% against 91.49%: the Poisson(1) bootstrap's draw (seeds 0-4: 90.69% to 92.39%, mean 91.25%)",
    ("tree.ExtremelyFastDecisionTreeClassifier-Agrawal", "defaults"):
        "85.59% against 87.29% with River's settings (ours with them: 88.39%): our default grace period of 200 "
        "leaves the first 200 of these 1,000 rows to one leaf",
    ("ensemble.SRPClassifier-Agrawal drift", "same"):
        "68.07% against 72.77%: three members on 1,000 rows; over seeds 0-9 ours range 55.4% to 80.2% "
        "(median 70.6%), so the gap is within the spread of the members' random patches and Poisson(6) weights",
    ("ensemble.SRPRegressor-FriedmanDrift", "same"):
        "R2 0.398 against 0.571: River, as MOA, gives its members the first combinations of 6 of the 10 "
        "features in order (for up to 20 features), so all three hold x0-x4, which are exactly Friedman's five "
        "relevant features; ours draws each member's features at random, which leaves relevant ones out. Given "
        "x0-x5 alone, ours reaches 0.542 (a lone tree 0.509); on all features a lone tree gives 0.503 and "
        "training_method='resampling' 0.512",
    ("ensemble.SRPRegressor-FriedmanDrift", "defaults"):
        "R2 0.436 against 0.571 (seeds 0-9: 0.383 to 0.461; mean leaves gave 0.315): ten members on random "
        "subspaces, where River's three all hold Friedman's five relevant features; see 'same'",
}


def _cases():
    for key, (_, _, _, builders) in EXAMPLES.items():
        for variant in builders:
            reason = KNOWN.get((key, variant))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(key, variant, id=f"{key}-{variant}", marks=marks)


@pytest.mark.parametrize("key,variant", list(_cases()))
def test_at_least_rivers_documented_figure(key, variant):
    river, metric, data, builders = EXAMPLES[key]
    value = evaluate.progressive_val_score(data(), builders[variant](), metric()).get()
    ours = round(100.0 * value, 2) if metric is metrics.Accuracy else round(value, 6)
    assert ours >= river, f"{key} ({variant}): ours {ours} against River's documented {river}"


def test_srp_takes_rivers_model_argument():
    """River's SRP takes its base tree as model=; ours reads the tree's
    settings (its defaults included) into the members', and refuses a model
    that is not a Hoeffding tree, or a setting given twice."""
    srp = ensemble.SRPClassifier(model=tree.HoeffdingTreeClassifier(grace_period=60, tau=0.1), n_models=2)
    params = srp._get_params()
    assert params["grace_period"] == 60 and params["tie_threshold"] == 0.1 and params["delta"] == 1e-07
    with pytest.raises(TypeError, match="Hoeffding trees"):
        ensemble.SRPClassifier(model=forest.ARFClassifier())
    with pytest.raises(TypeError, match="both"):
        ensemble.SRPClassifier(model=tree.HoeffdingTreeClassifier(grace_period=60), grace_period=70)


def test_rivers_tree_settings_without_a_counterpart_say_so():
    """River's tree settings we have no use for raise an error naming River's
    setting and what to use here; River's leaf_model=LinearRegression() (the
    leaves' regression model) is what our linear leaves are."""
    from irithyll import linear_model, naive_bayes
    for key, value, ours in (("max_size", 100, "max_depth"), ("splitter", None, "numeric="),
                             ("binary_split", True, "categorical_features")):
        with pytest.raises(TypeError, match=rf"River's {key} has no counterpart here.*{ours}"):
            tree.HoeffdingTreeClassifier(**{key: value})
        with pytest.raises(TypeError, match=f"River's {key}"):
            forest.ARFRegressor(**{key: value})
    model = tree.HoeffdingTreeRegressor(leaf_prediction="model", leaf_model=linear_model.LinearRegression())
    assert model._get_params()["leaf_model"] == "linear"
    with pytest.raises(TypeError, match="leaf_prediction='model'"):
        tree.HoeffdingTreeRegressor(leaf_model=naive_bayes.GaussianNB())
