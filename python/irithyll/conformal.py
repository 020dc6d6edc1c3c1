"""Conformal prediction around any model of the catalogue (adaptive
conformal inference, Gibbs & Candes 2021): ``Interval`` gives prediction
intervals around a regressor, ``ClassifierSets`` prediction sets around a
classifier. The wrapped model is named with its settings:

    >>> from irithyll import conformal
    >>> model = conformal.Interval(model="sgbt:n_steps=20", level=0.9)
    >>> model.learn_one({"a": 1.0}, 2.0)
    >>> lo, hi = model.predict_interval_one({"a": 1.0})
"""
from ._learners import GENERATED as _GENERATED

_classes = dict(_GENERATED.get("conformal", {}))


def _level(self, level):
    return float(self._params.get("level", 0.9)) if level is None else float(level)


def _predict_interval_one(self, x, level=None):
    """(lower, upper) holding y with probability `level` (default: the
    model's own level, which adapts to drift)."""
    self._check_x(x)
    if self._model is None:
        return (float("-inf"), float("inf"))
    return tuple(self._model.interval_dict(x, _level(self, level)))


def _predict_set_one(self, x, level=None):
    """The set of labels holding the true one with probability `level`."""
    self._check_x(x)
    if self._model is None:
        return set(self._labels)
    return {self._labels[k] for k in self._model.set_dict(x, _level(self, level)) if k < len(self._labels)}


if "Interval" in _classes:
    _classes["Interval"].predict_interval_one = _predict_interval_one
if "ClassifierSets" in _classes:
    _classes["ClassifierSets"].predict_set_one = _predict_set_one

globals().update(_classes)
__all__ = sorted(_classes)
