"""River's documented examples, run with irithyll.

Each entry below is one `>>> evaluate.progressive_val_score(...)` (or
time-series) example from River's docstrings whose data River bundles in its
package (phishing.csv.gz, trump_approval.csv.gz, banana.zip, segment.csv.zip,
airline-passengers.csv). The same pipeline and metric are run with our
classes twice: with River's parameters where we have them ("same") and with
our defaults ("defaults"). River's data is not shipped here: give the folder
that holds those files as the first argument or in IRITHYLL_RIVER_DATA.

    PYTHONPATH=build/python python3 python/tests/river_examples/run_examples.py /path/to/river_data

prints one table row per example and variant, and exits 1 when a figure is
worse than River's documented one.
"""
import calendar
import csv
import gzip
import io
import math
import os
import sys
import zipfile

from irithyll import ensemble, evaluate, forest, linear_model, metrics, neighbors, preprocessing, time_series, tree

ENV = "IRITHYLL_RIVER_DATA"
FILES = {
    "Phishing": "phishing.csv.gz",
    "TrumpApproval": "trump_approval.csv.gz",
    "Bananas": "banana.zip",
    "ImageSegments": "segment.csv.zip",
    "AirlinePassengers": "airline-passengers.csv",
}


# --- River's bundled datasets, read as River's dataset classes read them ----------------------
def _csv_rows(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rt", newline="") as f:
            return list(csv.DictReader(f))
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            name = next(n for n in z.namelist() if not n.startswith("__MACOSX"))
            return list(csv.DictReader(io.TextIOWrapper(z.open(name), encoding="utf-8", newline="")))
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def phishing(folder):
    """1,250 web pages, 9 features, y = is_phishing as a bool."""
    out = []
    for row in _csv_rows(os.path.join(folder, FILES["Phishing"])):
        y = row.pop("is_phishing") == "1"
        out.append(({k: float(v) for k, v in row.items()}, y))
    return out


def trump_approval(folder):
    """1,001 days, 6 features (ordinal_date and five pollsters), y = 538's approval."""
    out = []
    for row in _csv_rows(os.path.join(folder, FILES["TrumpApproval"])):
        y = float(row.pop("five_thirty_eight"))
        x = {k: (int(v) if k == "ordinal_date" else float(v)) for k, v in row.items()}
        out.append((x, y))
    return out


def bananas(folder):
    """5,300 points in libsvm form ('-1 1:a 2:b'), y = label == 1."""
    out = []
    with zipfile.ZipFile(os.path.join(folder, FILES["Bananas"])) as z:
        name = next(n for n in z.namelist() if not n.startswith("__MACOSX"))
        for line in io.TextIOWrapper(z.open(name), encoding="utf-8"):
            parts = line.split()
            if not parts:
                continue
            x = {k: float(v) for k, v in (p.split(":") for p in parts[1:])}
            out.append((x, parts[0] == "1"))
    return out


def image_segments(folder):
    """2,310 image segments, 18 features, 7 classes."""
    out = []
    for row in _csv_rows(os.path.join(folder, FILES["ImageSegments"])):
        y = row.pop("category")
        out.append(({k: float(v) for k, v in row.items()}, y))
    return out


def airline_passengers(folder):
    """144 months: (year, month) and the passenger count."""
    out = []
    for row in _csv_rows(os.path.join(folder, FILES["AirlinePassengers"])):
        year, month = (int(p) for p in row["month"].split("-"))
        out.append(((year, month), int(row["passengers"])))
    return out


# --- the examples -------------------------------------------------------------------------------
def _scaled(model):
    return preprocessing.StandardScaler() | model


class Example:
    """One documented example: River's figure and how to rebuild it with our classes.

    same: River's parameters passed as they are, where we have them;
    equivalent: River's parameters translated to what they mean for River
    (None where that is `same`); defaults: our defaults in River's pipeline;
    all three are zero-argument builders. higher: a larger figure is better."""

    def __init__(self, model, dataset, metric, river, river_call, same, defaults, higher, equivalent=None, note="",
                 river_source="River master docstring"):
        self.model, self.dataset, self.metric, self.river = model, dataset, metric, river
        self.river_call, self.same, self.defaults, self.higher = river_call, same, defaults, higher
        self.equivalent, self.note, self.river_source = equivalent, note, river_source

    def builder(self, variant):
        return {"same": self.same, "equivalent": self.equivalent, "defaults": self.defaults}[variant]

    def variants(self):
        return [v for v in VARIANTS if self.builder(v) is not None]

    def key(self):
        return f"{self.model}-{self.dataset}"


def _prequential(data, model, metric, take=None):
    rows = data if take is None else data[:take]
    return evaluate.progressive_val_score(rows, model, metric).get()


def _classification(data_fn, metric_cls, take=None):
    return lambda folder, build: _prequential(data_fn(folder), build(), metric_cls(), take)


def _percent(value):
    return 100.0 * value


def _holt_winters_horizons(folder, build, horizon=12, grace=12):
    """River's time_series.evaluate(dataset, model, MAE, horizon=12,
    grace_period=12): learn the first `grace` values, then at each step t
    forecast t..t+horizon-1 (only windows that fit in the series are
    scored), then learn y_t. Returns the 12 MAEs, +1 first."""
    ys = [y for _, y in airline_passengers(folder)]
    model = build()
    for y in ys[:grace]:
        model.learn_one(y)
    sums, counts = [0.0] * horizon, [0] * horizon
    for t in range(grace, len(ys)):
        if t + horizon <= len(ys):
            for h, f in enumerate(model.forecast(horizon)):
                sums[h] += abs(ys[t + h] - f)
                counts[h] += 1
        model.learn_one(ys[t])
    return [s / c for s, c in zip(sums, counts)]


def _month_features(year, month):
    """River's SNARIMAX example's features: the ordinal date and
    exp(-(month - m)^2) for each calendar month m."""
    import datetime
    x = {"ordinal_date": float(datetime.date(year, month, 1).toordinal())}
    for m in range(1, 13):
        x[calendar.month_name[m]] = math.exp(-((month - m) ** 2))
    return x


def _snarimax_rolling_mae(folder, build):
    """River's SNARIMAX example: one-step forecasts with the month features,
    Rolling(MAE(), 12) over the whole series."""
    model = build()
    metric = metrics.Rolling(metrics.MAE(), 12)
    for (year, month), y in airline_passengers(folder):
        x = _month_features(year, month)
        y_pred = model.forecast(1, [x])[0]
        model.learn_one(y, x)
        metric.update(y, y_pred)
    return metric.get()


VARIANTS = ("same", "equivalent", "defaults")
# River's pipeline already standardizes, so River's meaning of a model after
# StandardScaler is ours with standardize=False (what our pipeline implies
# after a StandardScaler; given here so that the variant says it).
UNSCALED = dict(standardize=False)

# A node cap no tree reaches on these streams (River's Mondrian trees have none).
UNCAPPED = 100_000

HW_RIVER = [25.899087, 26.26131, 25.735903, 25.625678, 26.093842, 26.90249, 28.634398, 29.284769, 31.018351,
            32.252349, 33.518946, 33.975057]

EXAMPLES = [
    Example("linear_model.LogisticRegression", "Phishing", "Accuracy (%)", 88.96,
            "StandardScaler | LogisticRegression(optimizer=optim.SGD(.1))",
            same=lambda: _scaled(linear_model.LogisticRegression(learning_rate=0.1)),
            defaults=lambda: _scaled(linear_model.LogisticRegression()), higher=True,
            equivalent=lambda: _scaled(linear_model.LogisticRegression(learning_rate=0.1, **UNSCALED))),
    Example("linear_model.LinearRegression", "TrumpApproval", "MAE", 0.558735,
            "StandardScaler | LinearRegression(intercept_lr=.1)",
            same=lambda: _scaled(linear_model.LinearRegression(intercept_lr=0.1)),
            defaults=lambda: _scaled(linear_model.LinearRegression()), higher=False,
            equivalent=lambda: _scaled(linear_model.LinearRegression(
                intercept_lr=0.1, intercept_warm_start=False, **UNSCALED)),
            note="equivalent: River's intercept starts at 0 and steps at intercept_lr from the first sample"),
    Example("linear_model.Perceptron", "Phishing", "Accuracy (%)", 85.84,
            "StandardScaler | Perceptron()",
            same=lambda: _scaled(linear_model.Perceptron()),
            defaults=lambda: _scaled(linear_model.Perceptron()), higher=True,
            equivalent=lambda: _scaled(linear_model.Perceptron(**UNSCALED))),
    Example("linear_model.ALMAClassifier", "Phishing", "Accuracy (%)", 82.56,
            "StandardScaler | ALMAClassifier()",
            same=lambda: _scaled(linear_model.ALMAClassifier()),
            defaults=lambda: _scaled(linear_model.ALMAClassifier()), higher=True,
            equivalent=lambda: _scaled(linear_model.ALMAClassifier(intercept=False, **UNSCALED)),
            note="equivalent: River's ALMA has no intercept"),
    Example("linear_model.SoftmaxRegression", "ImageSegments", "MacroF1", 0.818765,
            "StandardScaler | SoftmaxRegression()",
            same=lambda: _scaled(linear_model.SoftmaxRegression()),
            defaults=lambda: _scaled(linear_model.SoftmaxRegression()), higher=True,
            equivalent=lambda: _scaled(linear_model.SoftmaxRegression(**UNSCALED)),
            river_source="River 0.7 docstring"),
    Example("tree.SGTClassifier", "Phishing", "Accuracy (%)", 82.24,
            "SGTClassifier(feature_quantizer=StaticQuantizer(n_bins=32, warm_start=10))",
            same=lambda: tree.SGTClassifier(n_bins=32, warm_start=10),
            defaults=lambda: tree.SGTClassifier(), higher=True),
    Example("tree.SGTRegressor", "TrumpApproval", "MAE", 1.721818,
            "SGTRegressor(delta=0.01, lambda_value=0.01, grace_period=20, "
            "feature_quantizer=DynamicQuantizer(std_prop=0.1))",
            same=lambda: tree.SGTRegressor(delta=0.01, lambda_value=0.01, grace_period=20),
            defaults=lambda: tree.SGTRegressor(), higher=False,
            note="same: our static bins stand in for River's DynamicQuantizer(std_prop=0.1)"),
    Example("tree.HoeffdingTreeRegressor", "TrumpApproval", "MAE", 0.852902,
            "StandardScaler | HoeffdingTreeRegressor(grace_period=100, leaf_prediction='adaptive', "
            "model_selector_decay=0.9)",
            same=lambda: _scaled(tree.HoeffdingTreeRegressor(grace_period=100, leaf_prediction="adaptive")),
            defaults=lambda: _scaled(tree.HoeffdingTreeRegressor()), higher=False,
            note="same: we have no model_selector_decay",
            river_source="River 0.7 docstring"),
    Example("tree.HoeffdingAdaptiveTreeRegressor", "TrumpApproval", "MAE", 0.78838,
            "StandardScaler | HoeffdingAdaptiveTreeRegressor(grace_period=50, leaf_prediction='adaptive', "
            "model_selector_decay=0.3, seed=0)",
            same=lambda: _scaled(tree.HoeffdingAdaptiveTreeRegressor(grace_period=50, leaf_prediction="adaptive",
                                                                     seed=0)),
            defaults=lambda: _scaled(tree.HoeffdingAdaptiveTreeRegressor()), higher=False,
            note="same: we have no model_selector_decay; with bootstrap on, the figure depends on the seed "
                 "(our seeds 0-9: 0.73 to 1.14)"),
    Example("forest.ARFRegressor", "TrumpApproval", "MAE", 0.772113,
            "StandardScaler | ARFRegressor(seed=42)",
            same=lambda: _scaled(forest.ARFRegressor(seed=42)),
            defaults=lambda: _scaled(forest.ARFRegressor()), higher=False),
    Example("forest.AMFClassifier", "Bananas[:500]", "Accuracy (%)", 85.37,
            "AMFClassifier(n_estimators=10, use_aggregation=True, dirichlet=0.5, seed=1)",
            same=lambda: forest.AMFClassifier(n_estimators=10, use_aggregation=True, dirichlet=0.5, seed=1),
            defaults=lambda: forest.AMFClassifier(), higher=True),
    Example("forest.AMFRegressor", "TrumpApproval", "MAE", 0.268533,
            "AMFRegressor(seed=42)",
            same=lambda: forest.AMFRegressor(seed=42),
            defaults=lambda: forest.AMFRegressor(), higher=False,
            equivalent=lambda: forest.AMFRegressor(seed=42, max_nodes=UNCAPPED),
            note="equivalent: River's trees have no node cap; ours stop growing at max_nodes=1024"),
    Example("ensemble.LeveragingBaggingClassifier", "Phishing", "F1", 0.886282,
            "LeveragingBaggingClassifier(model=StandardScaler | LogisticRegression(), n_models=3, seed=42)",
            same=lambda: ensemble.LeveragingBaggingClassifier(
                model=preprocessing.StandardScaler() | linear_model.LogisticRegression(), n_models=3, seed=42),
            defaults=lambda: _scaled(ensemble.LeveragingBaggingClassifier()), higher=True,
            equivalent=lambda: ensemble.LeveragingBaggingClassifier(
                model=preprocessing.StandardScaler() | linear_model.LogisticRegression(**UNSCALED), n_models=3,
                seed=42),
            note="equivalent: River's LogisticRegression does not standardize; defaults: our members are "
                 "Hoeffding trees"),
    Example("neighbors.KNNClassifier", "Phishing", "Accuracy (%)", 88.07,
            "StandardScaler | KNNClassifier()",
            same=lambda: _scaled(neighbors.KNNClassifier()),
            defaults=lambda: _scaled(neighbors.KNNClassifier()), higher=True,
            equivalent=lambda: _scaled(neighbors.KNNClassifier(**UNSCALED)),
            river_source="River 0.7 docstring"),
    Example("neighbors.KNNRegressor", "TrumpApproval", "MAE", 0.441308,
            "StandardScaler | KNNRegressor(window_size=50)",
            same=lambda: _scaled(neighbors.KNNRegressor(window_size=50)),
            defaults=lambda: _scaled(neighbors.KNNRegressor()), higher=False,
            equivalent=lambda: _scaled(neighbors.KNNRegressor(window_size=50, weighting="uniform", **UNSCALED)),
            note="equivalent: River's KNNRegressor averages its neighbours unweighted",
            river_source="River 0.7 docstring"),
    Example("time_series.HoltWinters", "AirlinePassengers", "MAE, mean of +1..+12", sum(HW_RIVER) / 12,
            "HoltWinters(alpha=0.3, beta=0.1, gamma=0.6, seasonality=12, multiplicative=True); "
            "evaluate(horizon=12, grace_period=12)",
            same=lambda: time_series.HoltWinters(alpha=0.3, beta=0.1, gamma=0.6, seasonality=12,
                                                 multiplicative=True),
            defaults=lambda: time_series.HoltWinters(seasonality=12, multiplicative=True), higher=False,
            note="defaults: seasonality=12, multiplicative=True kept (they describe the data)"),
    Example("time_series.SNARIMAX", "AirlinePassengers", "Rolling(MAE, 12)", 11.636563,
            "month features | SNARIMAX(p=0, d=0, q=0, m=12, sp=3, sq=6, "
            "regressor=StandardScaler | LinearRegression(intercept_init=110, optimizer=SGD(0.01), "
            "intercept_lr=0.3))",
            same=lambda: time_series.SNARIMAX(
                p=0, d=0, q=0, m=12, sp=3, sq=6,
                regressor=preprocessing.StandardScaler() | linear_model.LinearRegression(
                    intercept_init=110, learning_rate=0.01, intercept_lr=0.3)),
            defaults=lambda: time_series.SNARIMAX(p=0, d=0, q=0, m=12, sp=3, sq=6), higher=False,
            note="defaults: the built-in linear model (recursive least squares)"),
]

RUNNERS = {
    "Phishing": _classification(phishing, metrics.Accuracy),
    "TrumpApproval": _classification(trump_approval, metrics.MAE),
    "Bananas[:500]": _classification(bananas, metrics.Accuracy, take=500),
    "ImageSegments": _classification(image_segments, metrics.MacroF1),
}


def run(example, variant, folder):
    """Our figure for one example and variant ('same' or 'defaults'), in
    River's printed units (accuracy in percent)."""
    build = example.builder(variant)
    if example.model == "time_series.HoltWinters":
        return sum(_holt_winters_horizons(folder, build)) / 12
    if example.model == "time_series.SNARIMAX":
        return _snarimax_rolling_mae(folder, build)
    if example.metric == "F1":
        return _prequential(phishing(folder), build(), metrics.F1())
    value = RUNNERS[example.dataset](folder, build)
    return _percent(value) if example.metric.startswith("Accuracy") else value


def passes(example, ours):
    """At least River's figure, compared at the precision River prints it
    (accuracy to 2 decimals of a percent, other metrics to 6 decimals)."""
    ours = round(ours, 2 if example.metric.startswith("Accuracy") else 6)
    return ours >= example.river if example.higher else ours <= example.river


def data_folder(argv=None):
    """The folder of River's data files (argument, else IRITHYLL_RIVER_DATA),
    or None when neither names a folder that holds them."""
    argv = sys.argv[1:] if argv is None else argv
    folder = argv[0] if argv else os.environ.get(ENV)
    if not folder or not all(os.path.exists(os.path.join(folder, f)) for f in FILES.values()):
        return None
    return folder


def main(argv=None):
    folder = data_folder(argv)
    if folder is None:
        print(f"skipped: River's bundled data files ({', '.join(FILES.values())}) were not found; "
              f"give their folder as the argument or in {ENV}")
        return 0
    print("| model | dataset | metric | River | ours: same parameters | ours: River-equivalent | ours: defaults "
          "| pass (same / equivalent / defaults) |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for ex in EXAMPLES:
        cells = []
        for variant in VARIANTS:
            if ex.builder(variant) is None:
                cells.append(("=same", "-"))
                continue
            try:
                ours = run(ex, variant, folder)
                ok = passes(ex, ours)
                cells.append((f"{ours:.6g}", "pass" if ok else "FAIL"))
                failed |= not ok
            except Exception as err:  # a class this build lacks, a parameter it refuses
                cells.append((f"error: {type(err).__name__}: {err}"[:80], "n/a"))
        print(f"| {ex.model} | {ex.dataset} | {ex.metric} | {ex.river:.6g} | "
              + " | ".join(c[0] for c in cells) + " | " + " / ".join(c[1] for c in cells) + " |")
    if folder and "HoltWinters" in " ".join(e.model for e in EXAMPLES):
        hw = _holt_winters_horizons(folder, EXAMPLES[[e.model for e in EXAMPLES].index("time_series.HoltWinters")].same)
        print("\nHoltWinters per horizon (ours, River's parameters / River):")
        for h, (a, b) in enumerate(zip(hw, HW_RIVER), 1):
            print(f"  +{h:<2} {a:10.6f} / {b:10.6f} {'pass' if a <= b else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
