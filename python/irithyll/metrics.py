"""Streaming metrics over the library's eval/ counters.

update(y_true, y_pred) then get(). Classification metrics take any hashable
labels (numbered as they appear, at most 64 distinct ones); LogLoss takes
y_pred as a {label: probability} dict, the others a label (a dict is reduced
to its most probable label). F1 is the macro F1 over the classes seen.
Rolling* versions look at the last window_size updates only.

KappaT and KappaM compare with two baselines run prequentially on the same
labels: the no-change classifier (it predicts the previous label) and the
majority class seen so far; both count as wrong on the first sample. ROCAUC
is exact (ties count one half, as scikit-learn's roc_auc_score), binary, and
takes a score for the positive class or a {label: probability} dict. MAPE
leaves out samples whose y_true is 0; SMAPE is 100 * mean 2|y - p| / (|y| + |p|).
These have no Rolling* version (RollingBalancedAccuracy excepted).
"""
import math

from . import _core

_MAX_CLASSES = 64


class Metric:
    bigger_is_better = True
    _key = ""

    def get(self):
        return self._core.values()[self._key]

    @property
    def n(self):
        return self._core.count

    def reset(self):
        self._core.reset()

    def __repr__(self):
        return f"{type(self).__name__}: {self.get():.6f}"

    __str__ = __repr__


class ClassificationMetric(Metric):
    def __init__(self, window_size=0):
        self.window_size = window_size
        self._core = _core.ClassMetrics(_MAX_CLASSES, window_size)
        self._index = {}

    def _label(self, y):
        i = self._index.get(y)
        if i is None:
            if len(self._index) >= _MAX_CLASSES:
                raise ValueError(f"{type(self).__name__}: more than {_MAX_CLASSES} distinct labels")
            i = self._index[y] = len(self._index)
        return i

    def update(self, y_true, y_pred):
        if isinstance(y_pred, dict):
            proba = y_pred
            y_pred = max(proba, key=proba.get) if proba else None
            p_truth = float(proba.get(y_true, 0.0))
        else:
            p_truth = 1.0 if y_pred == y_true else 0.0
        self._core.update(self._label(y_true), self._label(y_pred), p_truth)


class RegressionMetric(Metric):
    bigger_is_better = False

    def __init__(self, window_size=0):
        self.window_size = window_size
        self._core = _core.RegMetrics(window_size)

    def update(self, y_true, y_pred):
        self._core.update(float(y_true), float(y_pred))


def _make(name, base, key, bigger, doc):
    cls = type(name, (base,), {"_key": key, "bigger_is_better": bigger, "__doc__": doc, "__module__": __name__})

    def rolling_init(self, window_size=1000):
        if not isinstance(window_size, int) or window_size < 1:
            raise ValueError(f"window_size = {window_size!r} is out of range: must be an integer >= 1")
        base.__init__(self, window_size)

    rolling = type("Rolling" + name, (cls,), {"__init__": rolling_init, "__module__": __name__,
                                              "__doc__": doc + " Over the last window_size updates."})
    return cls, rolling


Accuracy, RollingAccuracy = _make("Accuracy", ClassificationMetric, "accuracy", True, "Share of correct labels.")
CohenKappa, RollingCohenKappa = _make("CohenKappa", ClassificationMetric, "kappa", True, "Cohen's kappa.")
F1, RollingF1 = _make("F1", ClassificationMetric, "macro_f1", True, "Macro F1 over the classes seen.")
LogLoss, RollingLogLoss = _make("LogLoss", ClassificationMetric, "log_loss", False,
                                "Mean -ln p(true label), p clipped to [1e-15, 1 - 1e-15].")
MAE, RollingMAE = _make("MAE", RegressionMetric, "mae", False, "Mean absolute error.")
RMSE, RollingRMSE = _make("RMSE", RegressionMetric, "rmse", False, "Root mean squared error.")
R2, RollingR2 = _make("R2", RegressionMetric, "r2", True, "Coefficient of determination.")
MacroF1 = F1
BalancedAccuracy, RollingBalancedAccuracy = _make("BalancedAccuracy", ClassificationMetric, "balanced_accuracy", True,
                                                  "Mean recall over the true classes seen.")


def _whole(name, base, key, bigger, doc):
    def init(self):
        base.__init__(self, 0)

    return type(name, (base,), {"__init__": init, "_key": key, "bigger_is_better": bigger, "__doc__": doc,
                                "__module__": __name__})


KappaT = _whole("KappaT", ClassificationMetric, "kappa_t", True,
                "Kappa against the no-change classifier: (acc - acc_nc) / (1 - acc_nc).")
KappaM = _whole("KappaM", ClassificationMetric, "kappa_m", True,
                "Kappa against the majority class so far: (acc - acc_maj) / (1 - acc_maj).")
MAPE = _whole("MAPE", RegressionMetric, "mape", False, "Mean absolute percentage error (y_true = 0 left out).")
SMAPE = _whole("SMAPE", RegressionMetric, "smape", False, "Symmetric mean absolute percentage error, 0..200.")


class ROCAUC(Metric):
    """Binary ROC AUC over every update; pos_val is the positive label."""

    def __init__(self, pos_val=True):
        self.pos_val = pos_val
        self._core = _core.RocAuc()

    def update(self, y_true, y_pred):
        if isinstance(y_pred, dict):
            score = float(y_pred.get(self.pos_val, 0.0))
        else:
            score = float(y_pred)
        if not math.isfinite(score):
            raise ValueError(f"ROCAUC: the score {y_pred!r} is not a finite number")
        self._core.update(y_true == self.pos_val, score)

    def get(self):
        return self._core.auc()


__all__ = ["Accuracy", "BalancedAccuracy", "CohenKappa", "F1", "KappaM", "KappaT", "LogLoss", "MAE", "MAPE",
           "MacroF1", "R2", "RMSE", "ROCAUC", "RollingAccuracy", "RollingBalancedAccuracy", "RollingCohenKappa",
           "RollingF1", "RollingLogLoss", "RollingMAE", "RollingR2", "RollingRMSE", "SMAPE"]
