"""irithyll.metrics and irithyll.drift over the library's counters and detectors."""
import math

import pytest

from irithyll import drift, metrics
from irithyll.drift.binary import DDM


def test_classification_metrics():
    y_true = ["a", "b", "a", "a", "b", "c"]
    y_pred = ["a", "b", "b", "a", "b", "c"]
    acc, kappa, f1 = metrics.Accuracy(), metrics.CohenKappa(), metrics.MacroF1()
    for t, p in zip(y_true, y_pred):
        for m in (acc, kappa, f1):
            m.update(t, p)
    assert acc.get() == pytest.approx(5 / 6)
    assert 0 < kappa.get() < 1 and 0 < f1.get() < 1
    assert str(acc) == "Accuracy: 83.33%"
    rolling = metrics.RollingAccuracy(window_size=2)
    for t, p in zip(y_true, y_pred):
        rolling.update(t, p)
    assert rolling.get() == 1.0 and rolling.n == 2
    with pytest.raises(ValueError, match="window_size"):
        metrics.RollingAccuracy(window_size=0)


def test_log_loss():
    m = metrics.LogLoss()
    m.update(True, {True: 0.8, False: 0.2})
    m.update(False, {True: 0.4, False: 0.6})
    assert m.get() == pytest.approx(-(math.log(0.8) + math.log(0.6)) / 2)


def test_regression_metrics():
    mae, rmse, r2 = metrics.MAE(), metrics.RMSE(), metrics.R2()
    for t, p in [(1.0, 1.5), (2.0, 2.0), (3.0, 2.0)]:
        for m in (mae, rmse, r2):
            m.update(t, p)
    assert mae.get() == pytest.approx(0.5)
    assert rmse.get() == pytest.approx(math.sqrt(1.25 / 3))
    assert r2.get() == pytest.approx(1 - 1.25 / 2)
    r = metrics.RollingMAE(window_size=1)
    r.update(1.0, 3.0)
    r.update(1.0, 2.0)
    assert r.get() == 1.0


def _shifted(n=2000):
    return [0.0 if (i * 7919) % 10 else 1.0 for i in range(n)] + [1.0] * n


@pytest.mark.parametrize("make", [lambda: drift.ADWIN(), lambda: drift.PageHinkley(threshold=20.0),
                                  lambda: DDM()], ids=["adwin", "ph", "ddm"])
def test_detectors_fire_after_shift(make):
    d = make()
    first = None
    for i, x in enumerate(_shifted()):
        d.update(x)
        if d.drift_detected and first is None:
            first = i
    assert first is not None and first >= 2000
    assert repr(d)


def test_detector_bad_parameters():
    with pytest.raises(ValueError):
        drift.ADWIN(delta=2.0)
    with pytest.raises(ValueError):
        drift.PageHinkley(threshold=-1.0)
