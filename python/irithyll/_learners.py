"""Learner classes generated from the library's model catalogue.

One class per catalogue row and task (SGBTClassifier, MambaRegressor, ...).
Keyword arguments, defaults, range checks, docstrings and reprs all come
from the catalogue table, so a model added in C++ appears here unchanged.

Sample conventions (River's):
  * x is a dict {feature_name: number or text}. The feature set is fixed by
    the first learn_one; a key missing later is a missing value (NaN, which
    every learner tolerates); a key never seen before is ignored, with one
    warning per model. None also counts as missing.
  * Text values are categories: each feature numbers its texts 0, 1, ... in
    order of first appearance while learning (a text first seen while
    predicting is a missing value), as the CLI reads a text column. Features
    that hold text in the first sample are also given to the model's
    categorical_features setting, where it has one (trees and SGBT split
    them by category sets), unless that setting (or River's
    nominal_attributes) is given.
  * Classifier labels are any hashable values, numbered in order of first
    appearance. With classes=[...] (or n_classes=K) the class count is fixed
    up front and a further label raises ValueError. Otherwise the model
    grows: a label past its class capacity rebuilds the C++ learner with
    room for twice as many classes and relearns the last `replay` samples
    (default 10000) it kept for this, as River's learners take new classes
    at any time.
  * The classifiers whose River counterpart is binary (LogisticRegression,
    Perceptron, PAClassifier, ALMAClassifier), given no classes, start as
    River's do with the labels False and True: untrained they predict False
    with probabilities {False: 0.5, True: 0.5}, and a label equal to 0/False
    or 1/True takes that slot (and is then reported as given). A first label
    that is neither drops both, and labels are numbered as they appear.
  * The C++ learner is built lazily at the first learn_one (or learn_many),
    when the feature count is known.
  * A model that has seen no sample has no prediction: predict_one returns
    None (a regressor) or None / the uniform probabilities over the labels
    given up front (a classifier; River's binary ones: False, see above),
    and progressive_val_score skips that row, as River's does. predict_many
    gives zeros (regression) then.
  * A model with a `standardize` setting that a pipeline feeds from a
    preprocessing.StandardScaler (the step just before it) is built with
    standardize=False unless that setting was given: its input is already
    standardised, and scaling it again by the running spread of the scaled
    values would change River's meaning of `StandardScaler() | model`.
"""
import collections
import keyword
import math
import warnings

from . import _core

_NAMES = {
    "sgbt": ("ensemble", "SGBT"),
    "adaptive_sgbt": ("ensemble", "AdaptiveSGBT"),
    "quantile_sgbt": ("ensemble", "QuantileSGBT"),
    "distributional_sgbt": ("ensemble", "DistributionalSGBT"),
    "bagged_sgbt": ("ensemble", "BaggedSGBT"),
    "moe_sgbt": ("ensemble", "MoESGBT"),
    "moe_distributional_sgbt": ("ensemble", "MoEDistributionalSGBT"),
    "stacked": ("ensemble", "Stacked"),
    "hoeffding_tree": ("tree", "HoeffdingTree"),
    "arf": ("forest", "ARF"),
    "attention": ("nn", "Attention"),
    "esn": ("nn", "ESN"),
    "kan": ("nn", "KAN"),
    "loglinear": ("nn", "LogLinear"),
    "lstm": ("nn", "LSTM"),
    "mamba": ("nn", "Mamba"),
    "mgrade": ("nn", "MGrade"),
    "ngrc": ("nn", "NGRC"),
    "slstm": ("nn", "SLSTM"),
    "spikenet": ("nn", "SpikeNet"),
    "ttt": ("nn", "TTT"),
}

# Rows the one-target Regressor / Classifier API cannot express: several
# targets per sample (multi_target_sgbt) take a target list, which only the
# CLI's `eval --target a,b,c` passes today. Checkpoints of them still load,
# as opaque learners.
NOT_IN_PYTHON = {"multi_target_sgbt"}
CATALOGUE = [row for row in _core.catalogue() if row["name"] not in NOT_IN_PYTHON]
# A setting whose Python spelling is a keyword (SGBT's "lambda") takes a
# trailing underscore, Python's usual escape: SGBTRegressor(lambda_=2.0).
for _row in CATALOGUE:
    for _f in _row["fields"]:
        if keyword.iskeyword(_f["python_name"]):
            _f["python_name"] += "_"


# River's parameter names and values for the models River also has: River
# name -> (our name, value translation or None). A River value our setting
# cannot express raises an error naming both spellings.
def _river_depth(v):
    return 0 if v is None else v


def _river_max_features(v):
    if v in ("sqrt", "log2"):
        raise ValueError(f"max_features={v!r} is River's spelling; ours is a feature count "
                         "(max_features=0: the square root of the feature count, River's 'sqrt')")
    return v


def _river_leaf(v):
    if not isinstance(v, str):
        raise TypeError(f"leaf_model={v!r}: River passes a model object here; ours is a name "
                        "(leaf_model='mean', 'linear' or 'adaptive')")
    return {"model": "linear"}.get(v, v)


def _river_weighted(v):
    return "distance" if v else "uniform"


def _model_spec(model):
    """River's model= (one of our learners, or a Pipeline of StandardScaler
    steps and one learner) as the text the base-model setting takes:
    "standard_scaler|logistic_regression(l2=0.0)". Text passes as it is."""
    if isinstance(model, str):
        return model
    from .compose import Pipeline
    from .preprocessing import StandardScaler
    parts = []
    for step in (list(model) if isinstance(model, Pipeline) else [model]):
        if isinstance(step, StandardScaler):
            parts.append("standard_scaler")
        elif isinstance(step, Learner) and step._model_name:
            settings = ";".join(f"{k}={v}" for k, v in step._settings())
            parts.append(step._model_name + (f"({settings})" if settings else ""))
        else:
            raise TypeError(f"model={model!r}: each step must be StandardScaler or one of irithyll's learners, "
                            f"not {type(step).__name__}")
    return "|".join(parts)


def _member_spec(model):
    """River's model= for wrappers whose base setting names one learner
    ("name:key=value,key=value"): one of our learners, or that text."""
    if isinstance(model, str):
        return model
    if isinstance(model, Learner) and model._model_name:
        settings = ",".join(f"{k}={v}" for k, v in model._settings())
        return model._model_name + (f":{settings}" if settings else "")
    raise TypeError(f"model={model!r}: give one of irithyll's learners or its catalogue name "
                    "(a pipeline cannot be wrapped here)")


# Ensembles whose members are Hoeffding trees with the tree's settings in
# their own table: River's model= (a HoeffdingTree learner) gives them its settings.
_TREE_MEMBER_ROWS = {"srp"}


def _tree_member_settings(owner, model, known):
    """River's model=tree.HoeffdingTreeClassifier(...) for an ensemble of
    Hoeffding trees: the tree's settings, as this ensemble's member settings."""
    if not (isinstance(model, Learner) and model._model_name == "hoeffding_tree"):
        raise TypeError(f"{owner}(model={model!r}): the members are Hoeffding trees; give "
                        "tree.HoeffdingTreeClassifier(...) or tree.HoeffdingTreeRegressor(...), whose settings "
                        "become the members' (other base models: ensemble.LeveragingBaggingClassifier takes any)")
    extra = sorted(set(model._params) - set(known))
    if extra:
        raise TypeError(f"{owner}(model=...): the member trees here have no setting {', '.join(extra)}")
    # Every setting of the tree, its defaults included, as River's members
    # are copies of the model given (HoeffdingTreeClassifier() means grace
    # period 200, not the ensemble's own member default of 50).
    full = {k: v for k, v in model._get_params().items() if k in known and k != "seed"}
    full.update(model._params)
    return full


# The rows whose trees are Hoeffding trees, and River's tree settings they
# have no counterpart for, with what to use instead.
_TREE_ROWS = {"hoeffding_tree", "hoeffding_adaptive_tree", "efdt", "arf", "srp", "leveraging_bagging"}
_MEMORY = ("part of River's memory manager; irithyll's trees keep no memory budget of their own: "
           "max_depth (or a larger grace_period) bounds their growth")
_RIVER_ONLY = {
    "max_size": _MEMORY, "memory_estimate_period": _MEMORY, "stop_mem_management": _MEMORY,
    "remove_poor_attrs": _MEMORY,
    "merit_preprune": "splits are always tested against not splitting where the criterion has a merit for it "
                      "(gini, variance reduction); info_gain follows MOA's rule",
    "splitter": "the numeric attribute observer is the numeric setting: numeric='gaussian' (n_split_points) "
                "or 'histogram' (n_bins)",
    "binary_split": "nominal attributes (categorical_features, River's nominal_attributes) split one branch "
                    "per value, or one value against the rest where that scores better",
    "model_selector_decay": "the adaptive leaves compare the mean's and the linear model's faded errors with "
                            "a fixed fading",
}


# River's drift detector classes and our detector settings' names for them.
_DETECTOR_KINDS = {"ADWIN": "adwin", "PageHinkley": "pht", "KSWIN": "kswin", "DDM": "ddm", "EDDM": "eddm",
                   "HDDM_A": "hddm_a", "HDDM_W": "hddm_w"}


def _detector_kind(detector):
    """River's drift_detector= (one of irithyll.drift's detectors, at its
    default thresholds) as the name our detector setting takes."""
    if isinstance(detector, str):
        return detector
    kind = _DETECTOR_KINDS.get(type(detector).__name__)
    if kind is None:
        raise TypeError(f"drift_detector={detector!r}: give one of irithyll.drift's detectors "
                        f"({', '.join(sorted(_DETECTOR_KINDS))}) or its name")
    if repr(detector) != repr(type(detector)()):
        raise TypeError(f"drift_detector={detector!r}: the wrapped model's detector runs at its kind's default "
                        f"thresholds; give {type(detector).__name__}() or '{kind}'")
    return kind


_TREE_ALIASES = {"tau": ("tie_threshold", None), "leaf_prediction": ("leaf_model", _river_leaf),
                 "max_depth": ("max_depth", _river_depth), "nominal_attributes": ("categorical_features", None)}
RIVER_ALIASES = {
    "hoeffding_tree": dict(_TREE_ALIASES),
    "arf": dict(_TREE_ALIASES, n_models=("n_trees", None), lambda_value=("lambda_", None),
                max_features=("max_features", _river_max_features)),
    "leveraging_bagging": dict(_TREE_ALIASES, w=("lambda_", None), model=("base_model", _model_spec)),
    "srp": dict(_TREE_ALIASES, lam=("lambda_", None)),
    "hoeffding_adaptive_tree": dict(_TREE_ALIASES, bootstrap_sampling=("bootstrap", None),
                                    drift_window_threshold=("drift_window", None)),
    "efdt": dict(_TREE_ALIASES, min_samples_reevaluate=("reevaluate_period", None)),
    "sgt": {"max_depth": ("max_depth", _river_depth), "nominal_attributes": ("categorical_features", None)},
    "knn": {"weighted": ("weighting", _river_weighted)},
    "continual": {"model": ("base", _member_spec), "drift_detector": ("detector", _detector_kind),
                  "train_in_background": ("background", None)},
}
# River's words for values our settings spell with a hyphen or another name.
_RIVER_VALUES = {"info_gain": "info-gain", "hellinger": "hellinger"}
# Rows whose River classifier is binary, with the labels False and True from
# the start (see the module docstring).
RIVER_BINARY = {"logistic_regression", "perceptron", "passive_aggressive", "alma"}


def place(name):
    """(submodule, class stem) for a catalogue row; new rows land in nn."""
    return _NAMES.get(name, ("nn", name[:1].upper() + name[1:]))


_ROWS = {row["name"]: row for row in CATALOGUE}


def class_name(name, classification):
    """(submodule, class name) of a row's class for one task: the row's own
    River names where it gives them, else stem + Classifier / Regressor."""
    row = _ROWS.get(name, {})
    given = row.get("python_classifier" if classification else "python_regressor", "")
    if row.get("python_module") and given:
        return row["python_module"], given
    module, stem = place(name)
    return module, stem + ("Classifier" if classification else "Regressor")


def from_text(field, text):
    """A catalogue default or current value as the Python value it stands for."""
    kind = field["type"]
    if kind == "int":
        return int(text, 0)
    if kind == "real":
        return float(text)
    if kind == "bool":
        return text in ("on", "true", "1")
    return text


def to_text(value):
    """A Python value as the catalogue's text form."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ",".join(to_text(v) for v in value)
    return str(value)



def _checked_weight(w):
    """A sample weight as a float; a NaN, infinite or negative one is refused
    (it would silently corrupt the model's sums, or be skipped unseen)."""
    if isinstance(w, (str, bytes)):
        raise TypeError(f"sample_weight must be a number, not {type(w).__name__}")
    w = float(w)
    if not math.isfinite(w) or w < 0.0:
        raise ValueError(f"sample_weight must be finite and >= 0, got {w!r}")
    return w


def _checked_weights(sample_weight, n):
    """learn_many's weights as a float64 vector of n finite, non-negative
    values (None: every weight 1); the first bad one is named by its row."""
    import numpy as np
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=np.float64)
    if w.shape != (n,):
        raise ValueError(f"sample_weight has shape {w.shape}, expected ({n},)")
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0.0))
    if bad.size:
        raise ValueError(f"sample_weight must be finite and >= 0: row {int(bad[0])} is {float(w[bad[0]])!r}"
                         f" ({bad.size} bad in all)")
    return w

def _batch_rows(name, seed, n, every, callback, subsample):
    """learn_many's keywords checked (messages name the class `name`): the
    rows to learn (indices from the reservoir sample seeded by `seed`,
    ascending, or None for all) and the chunk between callbacks (0: one
    call, no callback)."""
    import numpy as np
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 0:
        raise ValueError(f"{name}.learn_many: every={every!r} must be an integer >= 0")
    if every > 0 and not callable(callback):
        raise TypeError(f"{name}.learn_many: every={every} needs a callable callback(n_done), not {callback!r}")
    if callback is not None and every == 0:
        raise ValueError(f"{name}.learn_many: callback= needs every=N (rows between calls)")
    rows = None
    if subsample is not None:
        if isinstance(subsample, bool) or not isinstance(subsample, (int, np.integer)) or subsample < 1:
            raise ValueError(f"{name}.learn_many: subsample={subsample!r} must be an integer >= 1")
        rows = np.asarray(_core.reservoir_indices(int(n), int(subsample), int(seed)), dtype=np.intp)
    return rows, int(every)


def _learn_in_chunks(learn, X, targets, w, every, callback):
    """learn(X, targets, w) over the rows, in chunks of `every` with
    callback(n_done) after each (the last chunk may be shorter); the model is
    the one a single call gives, since each call learns its rows in order."""
    if every == 0:
        learn(X, targets, w)
        return
    n = len(X)
    for start in range(0, n, every):
        stop = min(start + every, n)
        learn(X[start:stop], targets[start:stop], None if w is None else w[start:stop])
        callback(stop)


class Learner:
    """Base of every generated learner (see the module docstring)."""

    _model_name = ""
    _fields = ()
    _classification = False
    # True once a pipeline feeds this model from a StandardScaler (see the module docstring).
    _scaled_input = False

    def __init__(self, *, seed=42, **params):
        known = {f["python_name"]: f for f in self._fields}
        params = self._river_params(params, known)
        for key, value in params.items():
            if key not in known:
                why = _RIVER_ONLY.get(key) if self._model_name in _TREE_ROWS else None
                if why:
                    raise TypeError(f"{type(self).__name__}({key}=...): River's {key} has no counterpart here: {why}")
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{key}'")
            if key == "categorical_features" and isinstance(value, (list, tuple, set)) and \
                    not all(isinstance(v, int) for v in value):
                continue  # feature names (River's nominal_attributes): indices once the features are known
            _core.check_setting(self._model_name, known[key]["name"], to_text(value))
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed = {seed!r} is out of range: must be an integer >= 0")
        self._params = dict(params)
        self.seed = seed
        self._model = None
        self._features = None
        self._warned = False
        # The target's name where the data gives one (a pandas Series' name in
        # learn_many, or a loaded checkpoint's); saved with the model, so the
        # CLI reads the same column as the target.
        self.target_name = None

    # --- parameters --------------------------------------------------------------
    def _river_params(self, params, known):
        """River's parameter names and values translated to ours; a River
        name our model has no use for is an error naming both."""
        aliases = RIVER_ALIASES.get(self._model_name, {})
        out = {}
        if isinstance(params.get("leaf_model"), Learner) and "leaf_model" in known:
            params = dict(params)
            model = params.pop("leaf_model")
            if model._model_name != "linear_regression":
                raise TypeError(f"{type(self).__name__}(leaf_model={model!r}): River's leaf_model is the model fitted "
                                "in each leaf; ours is built in: leaf_prediction='model' (our leaf_model='linear') "
                                "or 'adaptive' fits a linear model per leaf (learning_rate sets its step), and no "
                                "other model can sit in the leaves")
            # River's LinearRegression in the leaves: our leaves' own linear model stands in for it.
        if self._model_name in _TREE_MEMBER_ROWS and "model" in params and "model" not in known:
            params = dict(params)
            for key, value in _tree_member_settings(type(self).__name__, params.pop("model"), known).items():
                if key in params:
                    raise TypeError(f"{type(self).__name__}(): {key} is given both here and in model=")
                params[key] = value
        for key, value in list(params.items()):
            if key == "optimizer" and hasattr(value, "river_name"):  # an irithyll.optim object, River's habit
                if "learning_rate" in params:
                    raise TypeError(f"{type(self).__name__}(): optimizer={value!r} carries the learning rate; "
                                    "drop learning_rate")
                out["learning_rate"] = value.lr
                value = value.river_name
            elif key in aliases and key not in known:
                ours, convert = aliases[key]
                if ours in params:
                    raise TypeError(f"{type(self).__name__}(): {key} (River's name) and {ours} are the same setting")
                key, value = ours, (convert(value) if convert else value)
            elif key in aliases and aliases[key][0] == key and aliases[key][1]:
                value = aliases[key][1](value)
            if isinstance(value, str) and key in known and known[key]["choices"]:
                choices = known[key]["choices"].split("|")
                if value not in choices and _RIVER_VALUES.get(value, value.replace("_", "-")) in choices:
                    value = _RIVER_VALUES.get(value, value.replace("_", "-"))
            if isinstance(value, str) and key in known and known[key]["type"] in ("int", "real"):
                raise TypeError(f"{type(self).__name__}(): {key}={value!r} must be a number, not text")
            out[key] = value
        return out

    def __or__(self, other):
        from .compose import Pipeline
        return Pipeline(self, other)

    def __ror__(self, other):
        from .compose import Pipeline
        return Pipeline(other, self)

    def _get_params(self):
        out = {f["python_name"]: from_text(f, f["default"]) for f in self._fields}
        out.update(self._implied_params())
        out.update(self._params)
        return out

    def _implied_params(self):
        """Settings implied by where the model stands: standardize=False
        after a StandardScaler."""
        return {"standardize": False} if self._scaled_input else {}

    def _input_standardized(self):
        """Called by a pipeline whose step before this model is a
        StandardScaler: turns the model's own standardisation off unless it
        was given or the model is already built."""
        if self._model is None and "standardize" not in self._params and \
                any(f["python_name"] == "standardize" for f in self._fields):
            self._scaled_input = True

    def __getattr__(self, name):
        # Settings read as attributes (model.n_steps), from the catalogue rows.
        if name.startswith("_"):
            raise AttributeError(name)
        params = self._get_params()
        if name in params:
            return params[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _settings(self):
        by_py = {f["python_name"]: f["name"] for f in self._fields}
        params = dict(self._implied_params(), **self._params)
        return [(by_py[k], to_text(v)) for k, v in params.items()
                if not (k == "categorical_features" and isinstance(v, (list, tuple, set)))]

    def _init_kwargs(self):
        """The constructor arguments that rebuild this object untrained."""
        return dict(self._params, seed=self.seed)

    def clone(self):
        """A fresh, untrained copy with the same settings."""
        return type(self)(**self._init_kwargs())

    def __repr__(self):
        # Only what differs from the catalogue's defaults, in the order given.
        kwargs = self._init_kwargs()
        if kwargs.get("seed") == 42:
            del kwargs["seed"]
        shown = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        return f"{type(self).__name__}({shown})"

    # --- building ----------------------------------------------------------------
    def _n_classes(self):
        return 0

    def _build_settings(self, features, first):
        """The settings to build with: categorical_features as indices, from
        feature names (River's nominal_attributes) or, when not given, the
        features that hold text in the first sample."""
        settings = [(k, v) for k, v in self._settings() if k != "categorical-features"]
        field = next((f for f in self._fields if f["python_name"] == "categorical_features"), None)
        if field is None:
            return settings
        given = self._params.get("categorical_features")
        if isinstance(given, (list, tuple, set)):
            where = {name: i for i, name in enumerate(features)}
            missing = [name for name in given if not isinstance(name, int) and name not in where]
            if missing:
                raise ValueError(f"{type(self).__name__}: categorical_features (River's nominal_attributes) names "
                                 f"{missing!r}, not among the features {list(features)!r}")
            index = sorted(name if isinstance(name, int) else where[name] for name in given)
            text = ",".join(str(i) for i in index)
        elif given not in (None, ""):
            text = to_text(given)
        else:
            text = ",".join(str(i) for i, name in enumerate(features)
                            if first is not None and isinstance(first.get(name), (str, bytes)))
        if text:
            settings.append((field["name"], text))
        return settings

    def _build(self, features, first=None):
        if not features:
            raise ValueError(f"{type(self).__name__}: the first sample has no features")
        self._built_with = self._build_settings(features, first)
        model = _core.Learner.make(self._model_name, self._built_with, self._classification,
                                   self._n_classes(), len(features), self.seed)
        model.set_features(list(features))
        self._features = list(features)
        self._model = model
        return model

    def _learn(self, x, target, sample_weight):
        sample_weight = _checked_weight(sample_weight)
        if not isinstance(x, dict):
            raise TypeError(f"x must be a dict of features, not {type(x).__name__}")
        model = self._model if self._model is not None else self._build(list(x), x)
        if self._features is None:  # a loaded checkpoint that had not learned yet
            if not x:
                raise ValueError(f"{type(self).__name__}: the first sample has no features")
            self._features = list(x)
            model.set_features(self._features)
        if model.learn_dict(x, target, float(sample_weight)) and not self._warned:
            self._warned = True
            unseen = [k for k in x if k not in set(self._features)]
            warnings.warn(f"{type(self).__name__}: features {unseen!r} were not in the first sample "
                          "and are ignored (the feature set is fixed by the first learn_one)",
                          stacklevel=3)

    def _check_x(self, x):
        if not isinstance(x, dict):
            raise TypeError(f"x must be a dict of features, not {type(x).__name__}")

    def _matrix(self, X, build=True):
        """X as a C-contiguous float64 matrix in the model's feature order.

        A DataFrame (anything with .columns and .to_numpy(), pandas included)
        is matched by column name: its columns name the features on the
        first call, later frames are reordered to them (an extra column is
        ignored; a missing one is an error naming it, since a misspelt name
        would otherwise read as all-missing). Text columns hold categories,
        coded as in learn_one (build=True learns new texts). A plain array
        is positional; its features are named 0..d-1 when it comes first.
        """
        import numpy as np
        columns = getattr(X, "columns", None)
        frame = columns is not None and hasattr(X, "to_numpy")
        order = None  # the frame's column of each model feature, when they differ
        text = []
        if frame:
            names = list(columns)
            if self._features is not None and names != self._features:
                where = {name: j for j, name in enumerate(names)}
                missing = [f for f in self._features if f not in where]
                if missing:
                    raise ValueError(f"{type(self).__name__}: X has no column {', '.join(map(repr, missing))} of "
                                     f"the model's features {self._features!r} (its columns: {names!r})")
                order = [where[f] for f in self._features]
                names = list(self._features)
            dtypes = list(getattr(X, "dtypes", ()))
            text = [j for j, t in enumerate(dtypes) if str(t) in ("object", "category", "string")]
            if order is not None:
                text = [order.index(j) for j in text if j in order]
        else:
            names = None
        if build:
            if self._model is None:
                names = names if names is not None else list(range(np.shape(X)[1]))
                self._build(names, {names[j]: "" for j in text})
            elif self._features is None:
                self._features = names if names is not None else list(range(np.shape(X)[1]))
                self._model.set_features(self._features)
        if not frame:
            X = np.ascontiguousarray(X, dtype=np.float64)
            if X.ndim != 2:
                raise ValueError("X must be a 2-D array (rows = samples)")
            return X
        if text:
            if order is not None:
                X = X.iloc[:, order]
            return self._coded(X, text, learning=build)
        values = np.asarray(X.to_numpy(dtype=np.float64), dtype=np.float64)
        if order is not None:
            values = values[:, order]
        return np.ascontiguousarray(values)

    def _coded(self, X, text, learning):
        """A frame with text columns as floats, each text its category code."""
        import numpy as np
        values = np.empty(X.shape, dtype=np.float64)
        numeric = [j for j in range(X.shape[1]) if j not in set(text)]
        if numeric:
            values[:, numeric] = X.iloc[:, numeric].to_numpy(dtype=np.float64)
        tables = self._model.codes() if self._model is not None else [[] for _ in range(X.shape[1])]
        changed = False
        for j in text:
            table = tables[j]
            index = {t: i for i, t in enumerate(table)}
            column = values[:, j]
            for i, v in enumerate(X.iloc[:, j].tolist()):
                if isinstance(v, bytes):
                    v = v.decode("utf-8")
                if isinstance(v, str):
                    code = index.get(v)
                    if code is None and learning:
                        code = index[v] = len(table)
                        table.append(v)
                        changed = True
                    column[i] = np.nan if code is None else code
                elif v is None:
                    column[i] = np.nan
                else:
                    try:
                        column[i] = float(v)
                    except (TypeError, ValueError):
                        raise TypeError(f"{type(self).__name__}: column {X.columns[j]!r} row {i}: {v!r} is neither "
                                        "a number nor text") from None
        if changed:
            self._model.set_codes(tables)
        return values

    @property
    def n_samples_seen(self):
        return 0 if self._model is None else self._model.n_samples_seen

    @property
    def memory_bytes(self):
        return 0 if self._model is None else self._model.memory_bytes

    def diagnostics(self):
        """What the model reports about itself: samples seen, memory, and the
        model's own report (trees, drift resets, chosen members...) where it
        gives one, as a dict. SGBT models add "ensembles" (per committee:
        steps, trees, leaves, depths, replacements, drift warnings, base
        prediction, and one dict per tree; the fields of the CLI's
        `inspect --json` diagnostics) and "replacements" (trees replaced so
        far); models with tuning hooks add "tuning_signals" (see
        config_diagnostics)."""
        import json
        out = {"n_samples_seen": self.n_samples_seen, "memory_bytes": self.memory_bytes}
        if self._model is not None:
            text = self._model.report_json()
            if text:
                out["report"] = json.loads(text)
            ensembles = self._model.diagnostics_json()
            if ensembles:
                out["ensembles"] = json.loads(ensembles)
                out["replacements"] = sum(e["replacements"] for e in out["ensembles"])
            if self._model.is_tunable():
                out["tuning_signals"] = self._model.tuning_signals()
        return out

    @property
    def features(self):
        """The feature names fixed by the first sample (None before it)."""
        return None if self._features is None else list(self._features)

    def _note_target(self, y):
        """Keeps the name of a named target batch (a pandas Series)."""
        name = getattr(y, "name", None)
        if isinstance(name, str) and name:
            self.target_name = name

    # --- persistence ---------------------------------------------------------------
    def _meta(self):
        codes = None
        if self._model is not None and self._features is not None:
            codes = self._model.codes()
            codes = codes if any(codes) else None
        # Implied settings are saved as given: a loaded model has no pipeline to imply them.
        return {"class": type(self).__name__, "kwargs": dict(self._implied_params(), **self._init_kwargs()),
                "features": self._features, "labels": getattr(self, "_labels", None), "codes": codes,
                "provisional": sorted(getattr(self, "_provisional", ())), "target": self.target_name}

    def __getstate__(self):
        state = self._meta()
        state["checkpoint"] = None if self._model is None else self._model.encode()
        state["warned"] = self._warned
        return state

    def __setstate__(self, state):
        type(self).__init__(self, **state["kwargs"])
        self._warned = state.get("warned", False)
        self.target_name = state.get("target")
        if state.get("labels") is not None:
            self._set_labels(state["labels"])
            self._provisional = set(state.get("provisional", ()))
        if state["checkpoint"] is not None:
            self._model = _core.Learner.decode(state["checkpoint"])
            self._features = list(state["features"])
            self._model.set_features(self._features)
            if state.get("codes"):
                self._model.set_codes(state["codes"])
            if self._classification:
                self.n_classes = max(self.n_classes, self._model.n_classes)

    def export_packed(self, path, format="f32"):
        """Writes the packed model (SGBT; see irithyll.packed) as one file, a
        multiclass bundle for K > 2 classes, and returns [path]. The file
        carries the feature names and, for a classifier, the class labels
        (as strings), so PackedModel and `irithyll predict --model` read
        columns and print classes by name."""
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: nothing to export before the first learn_one")
        features = [str(f) for f in (self._features or [])]
        labels = getattr(self, "_labels", None) or []
        classes = []
        if self._classification:
            classes = [str(labels[k]) if k < len(labels) else str(k) for k in range(self.n_classes)]
        return self._model.export_packed(str(path), format, features, classes)

    # --- tree models: importances and tree dumps -----------------------------------
    def _tree_model(self, what):
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: {what} before the first learn_one")
        return self._model

    def feature_importances(self, importance_type="gain"):
        """Per feature name, its share of the split gain ("gain", SGBT) or its
        number of splits in the live trees ("split", every tree model), as
        LightGBM's feature_importance(importance_type=...). Raises ValueError
        for models without trees, or "gain" on trees that record none."""
        model = self._tree_model("feature_importances")
        if importance_type == "split":
            values = model.split_counts()
        elif importance_type == "gain":
            values = model.gain_shares()
            if not values and model.n_trees() > 0:
                raise ValueError(f"{type(self).__name__}: records no split gains; use importance_type='split'")
        else:
            raise ValueError(f"importance_type must be 'gain' or 'split', not {importance_type!r}")
        return {name: v for name, v in zip(self._features, values)}

    def num_trees(self):
        """How many trees dump_tree can show (tree models only; a method, as
        in LightGBM, since n_trees is ARF's setting)."""
        return self._tree_model("num_trees").n_trees()

    def dump_tree(self, i=0, format="text"):
        """Tree i as an indented outline ("text") or Graphviz ("dot"), with
        the feature names of the first sample."""
        return self._tree_model("dump_tree").dump_tree(i, format, [str(f) for f in self._features])

    # --- explanations (TreeSHAP) -----------------------------------------------------
    def _explain_rows(self, X, cls, background=None):
        model = self._tree_model("explain")
        output = -1
        if cls is not None:
            if not self._classification:
                raise ValueError(f"{type(self).__name__}: cls applies to classifiers")
            labels = getattr(self, "_labels", [])
            output = labels.index(cls) if cls in labels else int(cls)
        if background is not None:
            background = self._background_matrix(background)
        return _core.explain_matrix(model, X, output, background)

    def _background_matrix(self, background):
        import numpy as np
        if isinstance(background, dict):
            background = [background]
        if isinstance(background, (list, tuple)) and background and isinstance(background[0], dict):
            return np.array([[float(r[f]) if f in r and r[f] is not None else np.nan for f in self._features]
                             for r in background], dtype=np.float64)
        return self._matrix(background, build=False)

    def _class_of(self, index):
        labels = getattr(self, "_labels", [])
        return labels[index] if index < len(labels) else index

    def explain_one(self, x, cls=None, background=None):
        """SHAP values (TreeSHAP) of the raw prediction for the dict x:
        {"base": b, "contributions": {feature: v}, "raw": r},
        base + sum(contributions) = raw. Raw is the margin (sgbt), the
        location (distributional_sgbt), the quantile predict_one returns
        (quantile_sgbt, before rearrangement), the vote's class probability or the
        leaf mean (hoeffding_tree, arf, srp, leveraging_bagging). Classifiers
        add "class" and explain the predicted class unless cls (a label)
        is given.
        Path-dependent by default; with background (a DataFrame, a matrix
        or a list of dicts) interventional SHAP against those rows, base
        being their mean raw output. Raises ValueError /
        NotImplementedError for models whose output is not a sum of trees."""
        import numpy as np
        self._check_x(x)
        model = self._tree_model("explain_one")
        row = np.array([[float(x[f]) if f in x and x[f] is not None else np.nan for f in self._features]])
        return self._explanations(row, cls, model, background)[0]

    def explain_many(self, X, cls=None, background=None):
        """explain_one for every row of X: a DataFrame (columns base, one per
        feature, raw, and class for classifiers) when X is a pandas
        DataFrame, else a list of dicts."""
        model = self._tree_model("explain_many")
        rows = self._matrix(X, build=False)
        out = self._explanations(rows, cls, model, background)
        columns = getattr(X, "columns", None)
        if columns is not None and hasattr(X, "to_numpy"):
            import pandas as pd
            flat = []
            for e in out:
                d = {"base": e["base"], **e["contributions"], "raw": e["raw"]}
                if "class" in e:
                    d = {"class": e["class"], **d}
                flat.append(d)
            return pd.DataFrame(flat, index=getattr(X, "index", None))
        return out

    def _explanations(self, rows, cls, model, background=None):
        base, phi, raw, which = self._explain_rows(rows, cls, background)  # which: the class explained
        out = []
        for i in range(len(base)):
            e = {"base": float(base[i]),
                 "contributions": {f: float(v) for f, v in zip(self._features, phi[i])},
                 "raw": float(raw[i])}
            if self._classification:
                e["class"] = self._class_of(int(which[i]))
            out.append(e)
        return out

    def predict_with_confidence(self, x):
        """(predict_one(x), confidence) for SGBT models: confidence =
        1 / sqrt(sum over the trees x reaches of lr^2 / (H + lambda)), which
        grows with the hessian weight in those leaves (0 before any tree
        has learned). Other models raise ValueError naming them."""
        self._check_x(x)
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: predict_with_confidence before the first learn_one")
        _, confidence = self._model.confidence_dict(x)
        return (self.predict_one(x), confidence)

    def config_diagnostics(self):
        """The five tuning signals of an SGBT or SGD linear model, as a dict:
        residual_alignment (> 0: successive corrections push the same way,
        a larger learning rate would help; < 0: they overshoot),
        regularization_sensitivity (0..1: how much lambda / l2 shrinks the
        fit), depth_sufficiency (0..1: evidence held where trees cannot
        grow deeper), effective_dof (free parameters fitted) and
        uncertainty. Other models raise ValueError naming them."""
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: config_diagnostics before the first learn_one")
        return self._model.tuning_signals()

    def adjust_config(self, lr_multiplier=1.0, lambda_delta=0.0):
        """Multiplies the learning rate by lr_multiplier (> 0) and adds
        lambda_delta to lambda (SGBT) or l2 (linear models), while the model
        keeps what it has learned. Results stay in each setting's range
        (lambda never below 0). The new values become the model's settings:
        attributes, clone(), pickles and checkpoints carry them."""
        self._tune("adjust_config", float(lr_multiplier), float(lambda_delta))

    def apply_structural_change(self, depth_delta=0, steps_delta=0):
        """SGBT: adds depth_delta levels to max_depth (growth from now on;
        existing branches stay) and steps_delta boosting steps (fresh trees
        at the end, or the last ones dropped). Linear models refuse a
        non-zero change."""
        for name, v in (("depth_delta", depth_delta), ("steps_delta", steps_delta)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{type(self).__name__}.apply_structural_change: {name} must be an integer, not {v!r}")
            if abs(v) > 100000:
                raise ValueError(f"{type(self).__name__}.apply_structural_change: {name}={v} is beyond +-100000")
        self._tune("apply_structural_change", depth_delta, steps_delta)

    def set_prune_half_life(self, half_life):
        """SGBT: the half-life, in samples, of each boosting step's running
        average of |learning_rate * prediction|, the evidence pruning
        compares (0 turns it off; else 1..1e12). It replaces the rate of
        quality_prune_alpha and keeps the averages even with both pruning
        rules off, so that check_proactive_prune can be called at will.
        Linear models refuse a non-zero half-life."""
        if isinstance(half_life, bool) or not isinstance(half_life, (int, float)):
            raise TypeError(f"{type(self).__name__}.set_prune_half_life: half_life must be a number, not {half_life!r}")
        self._tune("set_prune_half_life", float(half_life))

    def check_proactive_prune(self):
        """SGBT: applies the proactive pruning rule once, now. The mature
        step (trained on at least half the proactive interval, or on one
        time constant of the averages when no interval is set) with the
        smallest average is replaced by a fresh tree if it is strictly
        below the 25th percentile of the mature steps'. Returns True when
        a step was replaced; False, changing nothing, when none qualified
        or the model keeps no averages (set a prune half-life first)."""
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: check_proactive_prune before the first learn_one")
        return self._model.check_proactive_prune()

    def _tune(self, what, *args):
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: {what} before the first learn_one (give the settings instead)")
        getattr(self._model, what)(*args)
        # The model's settings now differ from the ones given: keep the
        # Python side's copy in step, so attributes, clone() and pickles agree.
        by_name = {f["name"]: f for f in self._fields}
        current = self._get_params()
        for name, text in self._model.settings():
            field = by_name.get(name)
            if field is None:
                continue
            value = from_text(field, text)
            if current.get(field["python_name"]) != value:
                self._params[field["python_name"]] = value

    def predict_sigma_one(self, x):
        """{"sigma": ..., "honest_sigma": ...} at x for distributional_sgbt
        models: sigma is the predictive standard deviation (the one its
        intervals use), honest_sigma the standard deviation of the location
        trees' contributions lr * tree(x) (0 with one tree or before any has
        learned). Other models raise ValueError naming them."""
        self._check_x(x)
        if self._model is None:
            raise ValueError(f"{type(self).__name__}: predict_sigma_one before the first learn_one")
        sigma, honest = self._model.sigma_dict(x)
        return {"sigma": sigma, "honest_sigma": honest}

    def save(self, path):
        """Writes the CLI's checkpoint file at `path` plus `path`.py.json with
        the Python side (feature names, labels, settings)."""
        from . import _persist
        _persist.save(self, path)


class Regressor(Learner):
    _classification = False

    def learn_one(self, x, y, sample_weight=1.0):
        """Learns one sample (predict first, then learn)."""
        if isinstance(y, (str, bytes)) or y is None:
            raise TypeError(f"{type(self).__name__}: the target must be a number, not {y!r}")
        y = float(y)
        if not math.isfinite(y):
            raise ValueError(f"{type(self).__name__}: the target is {y!r}, not a finite number")
        self._learn(x, y, sample_weight)

    def predict_one(self, x):
        """The prediction for x. Before the first sample it is 0.0, as River's
        regressors answer and as `irithyll eval` scores the first row, or the
        model's intercept_init where it has one (a classifier's predict_one
        is None until it has seen a label)."""
        self._check_x(x)
        if self._model is None:
            return float(self._params.get("intercept_init", 0.0))
        return self._model.predict_dict(x)

    def predict_interval_one(self, x, level=0.9):
        """(lower, upper) holding y with probability `level`, for the models
        that predict a distribution or quantiles (DistributionalSGBT,
        QuantileSGBT, conformal.Interval); others raise ValueError saying to
        wrap them in conformal.Interval."""
        self._check_x(x)
        if not 0.0 < level < 1.0:
            raise ValueError(f"level = {level!r} is out of range (0, 1)")
        if self._model is None:
            return (float("-inf"), float("inf"))
        return tuple(self._model.interval_dict(x, float(level)))

    def learn_many(self, X, y, sample_weight=None, *, every=0, callback=None, subsample=None):
        """Learns the rows of X in order (the GIL is released meanwhile).
        every=N, callback=f: f(n_done) after every N rows and once at the
        end if the count is not a multiple of N. subsample=k: learns k rows
        drawn uniformly by reservoir sampling (seeded by the model's seed),
        kept in their order."""
        X = self._matrix(X)
        targets = self._targets(y)
        w = _checked_weights(sample_weight, len(X))
        rows, every = _batch_rows(type(self).__name__, self.seed, len(X), every, callback, subsample)
        if rows is not None:
            X, targets, w = X[rows], targets[rows], (None if w is None else w[rows])
        _learn_in_chunks(self._model.learn_many, X, targets, w, every, callback)
        self._note_target(y)

    def predict_many(self, X):
        import numpy as np
        X = self._matrix(X, build=False)
        if self._model is None:
            return np.zeros(len(X))
        return self._model.predict_many(X)

    def predict_learn_many(self, X, y):
        """Prequential over the rows: each row is predicted, then learned.
        Returns the predictions (what a predict_one/learn_one loop gives)."""
        import numpy as np
        X = self._matrix(X)
        pred = self._model.predict_learn_many(X, self._targets(y))
        self._note_target(y)
        return pred

    def _targets(self, y):
        """A batch's targets as float64; a NaN or infinite one is named by its row."""
        import numpy as np
        y = np.asarray(y, dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(y))
        if bad.size:
            raise ValueError(f"{type(self).__name__}: target of row {int(bad[0])} is {float(y[bad[0]])!r}, not a "
                             f"finite number ({bad.size} bad in all)")
        return y


class Classifier(Learner):
    _classification = True

    def __init__(self, *, seed=42, classes=None, n_classes=None, replay=10000, **params):
        super().__init__(seed=seed, **params)
        self._fixed = classes is not None or n_classes is not None
        if classes is not None:
            classes = list(classes)
            if len(classes) < 2 or len(set(classes)) != len(classes):
                raise ValueError("classes must list at least two distinct labels")
            n_classes = len(classes)
        self._given_n = n_classes if classes is None else None
        if n_classes is None:
            n_classes = 2
        if not isinstance(n_classes, int) or isinstance(n_classes, bool) or n_classes < 2:
            raise ValueError(f"n_classes = {n_classes!r} is out of range: must be an integer >= 2")
        if not isinstance(replay, int) or isinstance(replay, bool) or replay < 0:
            raise ValueError(f"replay = {replay!r} is out of range: must be an integer >= 0")
        self.replay = replay
        self._capacity = n_classes
        self.n_classes = n_classes
        self.classes = classes
        # Recent samples (dicts, or rows of batches), relearned when the class
        # capacity grows; None for a fixed class count.
        self._recent = None if self._fixed or not replay else collections.deque(maxlen=replay)
        self._set_labels(classes or [])
        if not self._fixed and self._model_name in RIVER_BINARY:
            self._set_labels([False, True])
            self._provisional = {0, 1}

    def _set_labels(self, labels):
        self._labels = list(labels)
        self._index = {label: i for i, label in enumerate(self._labels)}
        self.n_classes = max(self.n_classes, len(self._labels))
        # Slots holding River's placeholder labels False / True, no label seen in them yet.
        self._provisional = set()

    def _n_classes(self):
        return self.n_classes

    def _init_kwargs(self):
        kwargs = super()._init_kwargs()
        if self.classes is not None:
            kwargs["classes"] = list(self.classes)
        elif self._given_n is not None:
            kwargs["n_classes"] = self._given_n
        if self.replay != 10000:
            kwargs["replay"] = self.replay
        return kwargs

    def _grow(self, needed):
        """Rebuilds the C++ learner with room for `needed` classes or more and
        relearns the samples kept in _recent."""
        self.n_classes = max(needed, 2 * self.n_classes)
        if self._model is None:
            return
        old = self._model
        settings = getattr(self, "_built_with", None) or [tuple(t) for t in old.settings()]
        model = _core.Learner.make(old.name, settings, True, self.n_classes, len(self._features), self.seed)
        model.set_features(self._features)
        model.set_codes(old.codes())
        import numpy as np
        for x, index, w in self._recent or ():
            if isinstance(x, dict):
                model.learn_dict(x, index, w)
            else:
                model.learn_many(x[None, :], np.array([index]), np.array([w]))
        self._model = model

    def _keep_rows(self, X, idx, w):
        """Keeps the last rows of a batch for relearning after growth."""
        if self._recent is None:
            return
        for i in range(max(0, len(X) - self.replay), len(X)):
            self._recent.append((X[i], idx[i], 1.0 if w is None else float(w[i])))

    def _label_index(self, y):
        i = self._index.get(y)  # 0 and 1 find the placeholders False and True (equal, same hash)
        if i is not None:
            if i in self._provisional:  # the placeholder becomes the label as given
                self._provisional.discard(i)
                del self._index[self._labels[i]]
                self._labels[i] = y
                self._index[y] = i
            return i
        if self._provisional and len(self._provisional) == len(self._labels):
            # The first label is not 0/1 or a bool: no placeholders, labels numbered as they appear.
            self._set_labels([])
        if y is None or (isinstance(y, float) and math.isnan(y)):
            raise ValueError(f"{type(self).__name__}: {y!r} is not a valid label")
        if len(self._labels) >= self.n_classes:
            if self._fixed:
                raise ValueError(f"{type(self).__name__}: label {y!r} would be class {len(self._labels) + 1}, but "
                                 f"the model was given {self.n_classes} classes {self._labels!r}; pass classes=[...] "
                                 "or a larger n_classes, or neither (the model then grows)")
            self._grow(len(self._labels) + 1)
        self._index[y] = len(self._labels)
        self._labels.append(y)
        return self._index[y]

    def learn_one(self, x, y, sample_weight=1.0):
        """Learns one sample (predict first, then learn)."""
        self._check_x(x)
        index = float(self._label_index(y))
        self._learn(x, index, sample_weight)
        if self._recent is not None:
            self._recent.append((x, index, float(sample_weight)))

    def predict_proba_one(self, x):
        """{label: probability} over the labels seen so far."""
        self._check_x(x)
        if self._model is None:
            # Untrained: uniform over the labels given up front (none: empty).
            return {label: 1.0 / len(self._labels) for label in self._labels}
        proba = self._model.proba_dict(x)
        out = {label: proba[i] for i, label in enumerate(self._labels)}
        if len(self._labels) < len(proba):  # class slots no label has taken yet: renormalise
            total = sum(out.values())
            if total > 0:
                out = {label: p / total for label, p in out.items()}
        return out

    def predict_one(self, x):
        """The most probable label seen so far (None before any)."""
        self._check_x(x)
        if self._model is None or not self._labels:
            return self._labels[0] if self._labels else None
        i = int(self._model.predict_dict(x))
        if i < len(self._labels):
            return self._labels[i]
        # The arg-max is a class slot no label has taken yet: best known label.
        proba = self.predict_proba_one(x)
        return max(proba, key=proba.get)

    def learn_many(self, X, y, sample_weight=None, *, every=0, callback=None, subsample=None):
        """Learns the rows of X in order (the GIL is released meanwhile).
        every=N, callback=f: f(n_done) after every N rows and once at the
        end if the count is not a multiple of N. subsample=k: learns k rows
        drawn uniformly by reservoir sampling (seeded by the model's seed),
        kept in their order."""
        idx = self._indices(y)
        X = self._matrix(X)
        w = _checked_weights(sample_weight, len(X))
        rows, every = _batch_rows(type(self).__name__, self.seed, len(X), every, callback, subsample)
        if rows is not None:
            X, idx, w = X[rows], idx[rows], (None if w is None else w[rows])
        _learn_in_chunks(self._model.learn_many, X, idx, w, every, callback)
        self._keep_rows(X, idx, w)
        self._note_target(y)

    def predict_learn_many(self, X, y):
        """Prequential over the rows: each row is predicted, then learned.
        Returns the predicted labels (what a predict_one/learn_one loop gives
        once every label has been seen; pass classes= for an exact match)."""
        import numpy as np
        idx = self._indices(y)
        X = self._matrix(X)
        pred = self._model.predict_learn_many(X, idx).astype(np.intp)
        self._keep_rows(X, idx, None)
        self._note_target(y)
        labels = np.array(self._labels + [None] * (self.n_classes - len(self._labels)), dtype=object)
        return labels[pred]

    def _indices(self, y):
        """The labels of a batch as class indices (the model grows, before
        the batch is learned, to hold every new label in it)."""
        import numpy as np
        values = np.asarray(y, dtype=object).tolist()
        return np.fromiter((self._label_index(v) for v in values), dtype=np.float64, count=len(values))

    def predict_proba_many(self, X):
        """Class probabilities, one row per sample, columns in `labels` order."""
        import numpy as np
        X = self._matrix(X, build=False)
        if self._model is None:
            return np.zeros((len(X), 0))
        return self._model.predict_proba_many(X)[:, :len(self._labels)]

    def predict_many(self, X):
        import numpy as np
        proba = self.predict_proba_many(X)
        if proba.shape[1] == 0:
            return np.array([None] * len(proba), dtype=object)
        labels = np.array(self._labels, dtype=object)
        return labels[np.argmax(proba, axis=1)]

    @property
    def labels(self):
        """Labels in class-index order."""
        return list(self._labels)


def _doc(row, task):
    lines = [f"{row['description']} ({task}; catalogue model '{row['name']}').", "", "Parameters", "----------"]
    for f in row["fields"]:
        rng = f" Allowed: {f['range']}." if f["range"] else ""
        lines.append(f"{f['python_name']} : {f['type']}, default {f['default']!s}")
        lines.append(f"    {f['help']}.{rng}")
    lines.append("seed : int, default 42")
    lines.append("    Random seed (same seed and stream: bit-identical model).")
    if task == "classification":
        lines.append("classes : list, optional")
        lines.append("    All labels, in class-index order; fixes the class count.")
        lines.append("n_classes : int, optional")
        lines.append("    A fixed class count when classes is not given; labels are numbered as they appear.")
        lines.append("    Neither given: the model grows to hold every label it meets.")
        lines.append("replay : int, default 10000")
        lines.append("    Recent samples a growing model keeps, and relearns when a new label needs room.")
    return "\n".join(lines)


def _signature(cls):
    """help() and inspect show the catalogue's keyword arguments."""
    import inspect
    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter(f["python_name"], kw, default=from_text(f, f["default"])) for f in cls._fields]
    params.append(inspect.Parameter("seed", kw, default=42))
    if issubclass(cls, Classifier):
        params += [inspect.Parameter("classes", kw, default=None), inspect.Parameter("n_classes", kw, default=None),
                   inspect.Parameter("replay", kw, default=10000)]
    return inspect.Signature(params)


def generate():
    """{submodule: {class name: class}} for every catalogue row and task."""
    out = {"ensemble": {}, "nn": {}}
    for row in CATALOGUE:
        for task, base in (("regression", Regressor), ("classification", Classifier)):
            if not row[task]:
                continue
            module, name = class_name(row["name"], task == "classification")
            cls = type(name, (base,), {
                "_model_name": row["name"],
                "_fields": tuple(row["fields"]),
                "__doc__": _doc(row, task),
                "__module__": f"irithyll.{module}",
                "__qualname__": name,
            })
            cls.__signature__ = _signature(cls)
            out.setdefault(module, {})[name] = cls
    return out


GENERATED = generate()


def class_for(name, classification):
    module, cls = class_name(name, classification)
    return GENERATED[module][cls]
