"""River's documented examples on River's bundled data: ours must do at
least as well as the figure River's docstring prints (compared at the
precision River prints it), for each way of building ours:

- same: River's parameters passed as they are;
- equivalent: River's parameters translated to what they mean in River
  (where that differs from `same`);
- defaults: our defaults in River's pipeline.

River's data files are not in this repository: set IRITHYLL_RIVER_DATA to a
folder holding phishing.csv.gz, trump_approval.csv.gz, banana.zip,
segment.csv.zip and airline-passengers.csv (River's river/datasets/ files),
or the module skips. Known shortfalls are strict xfails that name the cause,
so one that starts passing fails until its mark is removed.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "river_examples"))
import run_examples  # noqa: E402



@pytest.fixture(scope="module")
def folder():
    found = run_examples.data_folder([])
    if found is None:
        pytest.skip(f"River's bundled data files ({', '.join(run_examples.FILES.values())}) not found: "
                    f"set {run_examples.ENV} to their folder")
    return found


# (example key, variant) -> why ours is short of River's figure.
KNOWN = {
    ("neighbors.KNNRegressor-TrumpApproval", "defaults"):
        "River's example passes window_size=50 (ours with it: 0.3170); our default window of 1,000 (River's own "
        "KNNRegressor default, and MOA's) lags this drifting series, but a window of 50 is 27-40% worse on the "
        "stationary friedman and hetero streams (CLI, 20,000 samples)",
    ("tree.HoeffdingAdaptiveTreeRegressor-TrumpApproval", "defaults"):
        "0.850 against 0.788 with adaptive leaves, River's default and ours (mean leaves gave 1.44); seeds 0-5: "
        "0.69 to 1.03, so the gap is the Poisson(1) bootstrap's draw (0.705 with bootstrap=False)",
    ("forest.AMFClassifier-Bananas[:500]", "same"):
        "60% against 85%: the stream opens with a pure run, so a pure root widens its box over most of the "
        "plane and no later sample inside it can split it (we follow the authors' Mondrian update); River's "
        "split leaves the moved child with no counts and an empty box, which re-opens every box it splits. "
        "split_pure=True gives 84.2% (seeds 1, 42, 0, 2-5: mean 85.2%) but loses 2.7 points on SEA and 3.4 "
        "on Agrawal",
    ("forest.AMFClassifier-Bananas[:500]", "defaults"):
        "60% against 85%: a pure root widens its box over the plane and cannot split again (see 'same'); "
        "split_pure=True gives 84.4% but loses accuracy on SEA and Agrawal",
    ("forest.AMFRegressor-TrumpApproval", "same"):
        "0.277 against 0.2685 (seeds 0-3: 0.273 to 0.278); River's trees differ from the authors' Mondrian "
        "update: a split shares the parent's running mean with the moved child, and split times are "
        "exp(1/E) instead of Exponential(E) draws",
    ("forest.AMFRegressor-TrumpApproval", "defaults"):
        "0.277 against 0.2685 (seeds 0-3: 0.273 to 0.278); River's split shares one running mean between "
        "parent and moved child and draws no random split times",
    ("forest.AMFRegressor-TrumpApproval", "equivalent"):
        "0.277 against 0.2685: as 'same' (the node cap no longer binds on 1,001 rows)",
    ("ensemble.LeveragingBaggingClassifier-Phishing", "defaults"):
        "our default members are Hoeffding trees (MOA's LeveragingBag default); River's figure is for logistic "
        "regressions: on these 1,250 rows trees reach F1 0.8718 to 0.8818 over seeds 0-9 (median 0.8781)",
    ("time_series.SNARIMAX-AirlinePassengers", "same"):
        "15.10 against 11.64 over the last 12 months (26.57 before an SGD step that would overshoot its target "
        "was cut to land on it). A Python replay of "
        "River's pipeline gives River's 11.636563 only when its StandardScaler learns each row at predict "
        "time, before scaling it (twice a month: at the forecast and again inside learn_one), and learns "
        "nothing in learn_one; scaling a row by statistics that exclude it gives 15.50. Our SNARIMAX also "
        "fits from the first row whose seasonal lags are all real (row 37 of 144), where River's starts at "
        "row 1 with the missing lags left out",
    ("time_series.SNARIMAX-AirlinePassengers", "defaults"):
        "11.93 against 11.64 over the last 12 months: our default regressor is recursive least squares (every "
        "row weighed alike), River's example an SGD linear regression (intercept_init=110) on River's seasonal "
        "lags, which stop at 24 (sp=3) and 60 (sq=6)",
}


# Shortfalls measured before a change to the model that River's data (not on
# the machine that made the change) could not re-measure: Hoeffding trees'
# regression leaves now start from their parent's linear model, with a
# default rate of 0.05 instead of 0.01; the Mondrian forest measures box
# extensions in units of each feature's range. Not strict until measured again.
REMEASURE = {("tree.HoeffdingAdaptiveTreeRegressor-TrumpApproval", "defaults"),
             ("forest.AMFClassifier-Bananas[:500]", "same"), ("forest.AMFClassifier-Bananas[:500]", "defaults"),
             ("forest.AMFRegressor-TrumpApproval", "same"), ("forest.AMFRegressor-TrumpApproval", "defaults"),
             ("forest.AMFRegressor-TrumpApproval", "equivalent")}


def _cases():
    for ex in run_examples.EXAMPLES:
        for variant in ex.variants():
            reason = KNOWN.get((ex.key(), variant))
            strict = (ex.key(), variant) not in REMEASURE
            marks = [pytest.mark.xfail(strict=strict, reason=reason)] if reason else []
            yield pytest.param(ex, variant, id=f"{ex.key()}-{variant}", marks=marks)


def _printed(example, value):
    """Ours at the precision River prints: accuracy to 2 decimals of a
    percent, every other metric to 6 decimals."""
    return round(value, 2 if example.metric.startswith("Accuracy") else 6)


@pytest.mark.parametrize("example,variant", list(_cases()))
def test_at_least_river_documented_figure(example, variant, folder):
    ours = _printed(example, run_examples.run(example, variant, folder))
    better = ours >= example.river if example.higher else ours <= example.river
    assert better, (f"{example.model} on {example.dataset} ({variant}): ours {ours} against River's documented "
                    f"{example.river} ({example.metric}; River: {example.river_call})")


def test_holt_winters_every_horizon(folder):
    """River's HoltWinters example prints one MAE per horizon step: ours, with
    River's parameters, must be at least as good at each of the 12."""
    ex = next(e for e in run_examples.EXAMPLES if e.model == "time_series.HoltWinters")
    ours = run_examples._holt_winters_horizons(folder, ex.same)
    worse = [(h + 1, round(a, 6), b) for h, (a, b) in enumerate(zip(ours, run_examples.HW_RIVER)) if round(a, 6) > b]
    assert not worse, worse


def test_runner_skips_without_data(tmp_path, capsys):
    """The script says what is missing and exits 0 when the folder lacks River's files."""
    assert run_examples.main([str(tmp_path)]) == 0
    assert "not found" in capsys.readouterr().out


def test_river_tree_names():
    """River's examples name the VFDT tree.HoeffdingTreeClassifier /
    HoeffdingTreeRegressor: both are the catalogue's hoeffding_tree row."""
    from irithyll import tree
    assert tree.HoeffdingTreeClassifier._model_name == "hoeffding_tree"
    assert tree.HoeffdingTreeRegressor._model_name == "hoeffding_tree"
    assert {"HoeffdingTreeClassifier", "HoeffdingTreeRegressor"} <= set(tree.__all__)
