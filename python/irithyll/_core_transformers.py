"""The library's catalogue transformers (`irithyll models` lists them under
"transformers") as River-style dict transformers.

Each class names one C++ transformer kind; its keyword arguments are that
kind's settings, spelled in snake_case, with the defaults, ranges and help of
the library's table (the class docstring lists them). The settings are
checked when the object is made: a bad one raises ValueError with the
library's message, which names the setting.

Sample conventions, the learners' (see irithyll._learners):
  * x is a dict {feature: number}. The first sample the object sees (learned
    or transformed) fixes the feature set and its order, the input positions
    of the C++ transformer; a key missing later, or None, is a missing value
    (NaN, which these transformers tolerate); a key never seen before is
    ignored, with one warning per object. Text values take a category code
    per feature, as for the learners.
  * transform_one right after learn_one of the same sample returns the
    features as they were before that sample was learned: the library's
    test-then-train order. A Pipeline learns each step and then transforms
    the sample, so its learner is trained on exactly the features it would
    have been given to predict that sample (for AttentionFeatures this also
    keeps the sample from being counted twice in the attention state).
  * Objects pickle (the C++ checkpoint inside) and continue bit-identically.
"""
import json
import math
import warnings

from . import _core
from ._learners import from_text, to_text
from .compose import _Composable

TABLES = {row["name"]: row for row in json.loads(_core.transformers_json())}


def parameters_doc(kind):
    """The settings of a transformer kind, as the class docstrings list them."""
    lines = ["\n    Parameters (defaults and ranges from the library's table):"]
    for f in TABLES[kind]["parameters"]:
        shown = f["range"] or f["choices"].replace("|", ", ") or "text"
        lines.append(f"        {f['python_name']} = {from_text(f, f['default'])!r}  ({shown}): {f['help']}")
    return "\n".join(lines)


class CoreTransformer(_Composable):
    """Base of the classes over a catalogue transformer (see the module docstring)."""

    _kind = ""

    def __init_subclass__(cls, **kwargs):
        # help() and inspect show the table's keyword arguments.
        super().__init_subclass__(**kwargs)
        if cls._kind:
            import inspect
            kw = inspect.Parameter.KEYWORD_ONLY
            params = [inspect.Parameter(f["python_name"], kw, default=from_text(f, f["default"]))
                      for f in TABLES[cls._kind]["parameters"]]
            if getattr(cls, "_supervised", False):
                params.append(inspect.Parameter("classes", kw, default=None))
            params.append(inspect.Parameter("seed", kw, default=42))
            cls.__signature__ = inspect.Signature(params)

    def __init__(self, *, seed=42, **params):
        fields = {f["python_name"]: f for f in TABLES[self._kind]["parameters"]}
        for key in params:
            if key not in fields:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{key}'")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed = {seed!r} is out of range: must be an integer >= 0")
        self._params = dict(params)
        self.seed = seed
        _core.check_transformer(self._kind, self._settings(), self._n_classes())
        self._core = None
        self._features = None
        self._warned = False
        self._pending = None  # (x, output) of the last learned sample, before it was learned

    # --- settings --------------------------------------------------------------------
    def _settings(self):
        fields = {f["python_name"]: f["name"] for f in TABLES[self._kind]["parameters"]}
        return [(fields[k], to_text(v)) for k, v in self._params.items()]

    def _n_classes(self):
        return 0

    def __getattr__(self, name):
        # Settings read as attributes, given or default.
        if name.startswith("_"):
            raise AttributeError(name)
        for f in TABLES[self._kind]["parameters"]:
            if f["python_name"] == name:
                return self._params.get(name, from_text(f, f["default"]))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _init_kwargs(self):
        kwargs = dict(self._params)
        if self.seed != 42:
            kwargs["seed"] = self.seed
        return kwargs

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(f"{k}={v!r}" for k, v in self._init_kwargs().items()) + ")"

    def clone(self):
        """A fresh, untrained copy with the same settings."""
        return type(self)(**self._init_kwargs())

    # --- samples ---------------------------------------------------------------------
    def _ready(self, x):
        if not isinstance(x, dict):
            raise TypeError(f"x must be a dict of features, not {type(x).__name__}")
        if self._core is None:
            if not x:
                raise ValueError(f"{type(self).__name__}: the first sample has no features")
            features = list(x)
            core = _core.Transformer.make(self._kind, self._settings(), len(features), self.seed,
                                          self._n_classes(), [str(k) for k in features])
            core.set_features(features)
            self._core, self._features = core, features
        return self._core

    def _warn_unseen(self, x):
        if not self._warned:
            self._warned = True
            unseen = [k for k in x if k not in set(self._features)]
            warnings.warn(f"{type(self).__name__}: features {unseen!r} were not in the first sample "
                          "and are ignored (the feature set is fixed by the first sample)", stacklevel=3)

    def _output_keys(self, n):
        """The output dict's keys for an output of width n."""
        raise NotImplementedError

    def _as_dict(self, values):
        return dict(zip(self._output_keys(len(values)), values))

    def _learn(self, x, y=None):
        core = self._ready(x)
        before = self._as_dict(core.transform_dict(x))
        extra = core.learn_dict(x) if y is None else core.learn_supervised_dict(x, y)
        if extra:
            self._warn_unseen(x)
        self._pending = (dict(x), before)

    def transform_one(self, x):
        """The transformed sample, a dict (see the module docstring for the
        value right after learn_one of the same sample)."""
        if self._pending is not None and x == self._pending[0]:
            out = self._pending[1]
            self._pending = None
            return dict(out)
        return self._as_dict(self._ready(x).transform_dict(x))

    # --- state -----------------------------------------------------------------------
    @property
    def features(self):
        """The input features in the order the transformer reads them (None before the first sample)."""
        return None if self._features is None else list(self._features)

    @property
    def memory_bytes(self):
        return 0 if self._core is None else self._core.memory_bytes

    def __getstate__(self):
        return {"kwargs": self._init_kwargs(), "features": self._features,
                "checkpoint": None if self._core is None else self._core.encode()}

    def __setstate__(self, state):
        type(self).__init__(self, **state["kwargs"])
        if state["checkpoint"] is not None:
            core = _core.Transformer.decode(state["checkpoint"])
            core.set_features(list(state["features"]))
            self._core, self._features = core, list(state["features"])


class UnsupervisedCoreTransformer(CoreTransformer):
    def learn_one(self, x):
        """Learns the sample's statistics."""
        self._learn(x)

    def learn_many(self, X):
        """Learns the rows of a pandas DataFrame in order."""
        for x in X.to_dict(orient="records"):
            self._learn(x)


class SupervisedCoreTransformer(CoreTransformer):
    """A transformer that learns with the target: Pipeline and
    TransformerUnion pass y to its learn_one."""

    _supervised = True

    def __init__(self, *, classes=None, seed=42, **params):
        self.classes = None if classes is None else list(classes)
        if self.classes is not None and len(set(self.classes)) != len(self.classes):
            raise ValueError(f"classes = {classes!r} lists a label twice")
        super().__init__(seed=seed, **params)

    def _n_classes(self):
        return 0 if self.classes is None else len(self.classes)

    def _init_kwargs(self):
        kwargs = super()._init_kwargs()
        if self.classes is not None:
            kwargs["classes"] = list(self.classes)
        return kwargs

    def _target(self, y):
        if self.classes is not None:
            try:
                return float(self.classes.index(y))
            except ValueError:
                raise ValueError(f"{type(self).__name__}: label {y!r} is not one of classes={self.classes!r}") \
                    from None
        if isinstance(y, (str, bytes)) or y is None:
            raise TypeError(f"{type(self).__name__}: the target must be a number (or give classes=[...]), "
                            f"not {y!r}")
        return float(y)

    def learn_one(self, x, y):
        """Learns the sample with its target (a non-finite target teaches nothing)."""
        y = self._target(y)
        if not math.isfinite(y):
            return
        self._learn(x, y)

    def learn_many(self, X, y):
        """Learns the rows of a pandas DataFrame in order, with their targets."""
        if len(y) != len(X):
            raise ValueError(f"{type(self).__name__}.learn_many: {len(y)} targets for {len(X)} rows")
        for x, target in zip(X.to_dict(orient="records"), y):
            self.learn_one(x, target)
