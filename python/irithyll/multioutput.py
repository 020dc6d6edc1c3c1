"""Several regression targets per sample, River's multioutput habit: y is a
dict of target name -> value, predict_one returns a dict of the same keys.

    model = multioutput.MultiTargetSGBTRegressor(n_steps=20)
    model.learn_one({"x": 1.0}, {"a": 2.0, "b": -1.0})
    model.predict_one({"x": 1.0})   # {"a": ..., "b": ...}

MultiTargetSGBTRegressor is the catalogue's multi_target_sgbt: one SGBT per
target with the settings of ensemble.SGBTRegressor. The target names are
fixed by the first learn_one; a later y may leave a target out (or give None
or NaN), which teaches every target but that one.
"""
import keyword
import math

from . import _core
from ._learners import Regressor, _batch_rows, _checked_weight

_ROW = next(row for row in _core.catalogue() if row["name"] == "multi_target_sgbt")
for _f in _ROW["fields"]:
    if keyword.iskeyword(_f["python_name"]):
        _f["python_name"] += "_"


class MultiTargetSGBTRegressor(Regressor):
    """One streaming gradient-boosted tree ensemble per target; learn_one(x,
    y: dict), predict_one(x) -> dict. Settings as ensemble.SGBTRegressor."""

    _model_name = "multi_target_sgbt"
    _fields = tuple(_ROW["fields"])

    def __init__(self, *, seed=42, **params):
        super().__init__(seed=seed, **params)
        self._targets = None

    def _build(self, features, first=None):
        if not features:
            raise ValueError(f"{type(self).__name__}: the first sample has no features")
        self._built_with = self._build_settings(features, first)
        model = _core.Learner.make_multi(self._model_name, self._built_with, len(features), len(self._targets),
                                         self.seed)
        model.set_features(list(features))
        self._features = list(features)
        self._model = model
        return model

    def _target_row(self, y):
        if not isinstance(y, dict):
            raise TypeError(f"{type(self).__name__}: y must be a dict of target name -> value (River's "
                            f"multioutput habit), not {type(y).__name__}")
        if self._targets is None:
            if not y:
                raise ValueError(f"{type(self).__name__}: the first y has no targets")
            self._targets = list(y)
        unknown = [k for k in y if k not in set(self._targets)]
        if unknown:
            raise ValueError(f"{type(self).__name__}: targets {unknown!r} were not in the first y "
                             f"{self._targets!r} (the target set is fixed by the first learn_one)")
        row = []
        for k in self._targets:
            v = y.get(k)
            if v is None:
                row.append(math.nan)
                continue
            if isinstance(v, (str, bytes)):
                raise TypeError(f"{type(self).__name__}: target {k!r} must be a number, not {v!r}")
            v = float(v)
            if math.isinf(v):
                raise ValueError(f"{type(self).__name__}: target {k!r} is {v!r}, not a finite number")
            row.append(v)
        return row

    def learn_one(self, x, y, sample_weight=1.0):
        """Learns one sample; y maps each target's name to its value."""
        sample_weight = _checked_weight(sample_weight)
        self._check_x(x)
        row = self._target_row(y)
        model = self._model if self._model is not None else self._build(list(x), x)
        model.learn_multi_dict(x, row, float(sample_weight))

    def predict_one(self, x):
        """A dict of target name -> prediction ({} before the first learn_one)."""
        self._check_x(x)
        if self._model is None:
            return {}
        return dict(zip(self._targets, self._model.predict_multi_dict(x)))

    def learn_many(self, X, y, sample_weight=None, *, every=0, callback=None, subsample=None):
        """Row by row: X a DataFrame, y a DataFrame with one column per target.
        every=N, callback=f: f(n_done) after every N rows and once at the
        end if the count is not a multiple of N. subsample=k: learns k rows
        drawn uniformly by reservoir sampling (seeded by the model's seed),
        kept in their order."""
        weights = [1.0] * len(X) if sample_weight is None else list(sample_weight)
        if len(weights) != len(X):
            raise ValueError(f"{type(self).__name__}.learn_many: {len(weights)} sample weights for {len(X)} rows")
        if len(y) != len(X):
            raise ValueError(f"{type(self).__name__}.learn_many: {len(y)} target rows for {len(X)} rows")
        rows, every = _batch_rows(type(self).__name__, self.seed, len(X), every, callback, subsample)
        order = range(len(X)) if rows is None else [int(r) for r in rows]
        done = 0
        for r in order:
            self.learn_one(X.iloc[r].to_dict(), y.iloc[r].to_dict(), weights[r])
            done += 1
            if every and done % every == 0:
                callback(done)
        if every and done % every:
            callback(done)

    def predict_many(self, X):
        """A DataFrame with one column per target."""
        import pandas as pd
        rows = [self.predict_one(xr.to_dict()) for _, xr in X.iterrows()]
        return pd.DataFrame(rows, index=X.index, columns=self._targets)

    def predict_learn_many(self, X, y):
        raise NotImplementedError(f"{type(self).__name__}: use learn_one / predict_one per row")

    def predict_interval_one(self, x, level=0.9):
        raise ValueError(f"{type(self).__name__} predicts no intervals")

    def _meta(self):
        meta = super()._meta()
        meta["targets"] = self._targets
        return meta

    def __setstate__(self, state):
        super().__setstate__(state)
        self._targets = state.get("targets")


__all__ = ["MultiTargetSGBTRegressor"]
