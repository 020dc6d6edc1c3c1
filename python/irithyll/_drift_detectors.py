"""The drift detectors of irithyll.drift (ADWIN, KSWIN, PageHinkley and their
base class); drift.py re-exports them beside the generated model classes."""
from . import _core

_STABLE, _WARNING, _DRIFT = 0, 1, 2


class DriftDetector:
    def __init__(self, kind, delta=0.005, threshold=50.0, warning_level=2.0, drift_level=3.0, min_instances=30):
        self._core = _core.Drift(kind, delta, threshold, warning_level, drift_level, min_instances)
        self._signal = _STABLE

    def update(self, x):
        """Feeds one value; non-finite values are ignored."""
        self._signal = self._core.update(float(x))

    @property
    def drift_detected(self):
        return self._signal == _DRIFT

    @property
    def warning_detected(self):
        return self._signal == _WARNING

    @property
    def estimation(self):
        """The detector's current estimate of the monitored mean."""
        return self._core.estimated_mean

    def _reset(self):
        self._core.reset()
        self._signal = _STABLE


class ADWIN(DriftDetector):
    """Adaptive windowing; delta is the confidence, in (0, 1)."""

    def __init__(self, delta=0.002):
        super().__init__("adwin", delta=delta)
        self.delta = delta

    def __repr__(self):
        return f"ADWIN(delta={self.delta!r})"


class PageHinkley(DriftDetector):
    """Page-Hinkley test: delta is the tolerated change, threshold the alarm level."""

    def __init__(self, delta=0.005, threshold=50.0):
        super().__init__("pht", delta=delta, threshold=threshold)
        self.delta, self.threshold = delta, threshold

    def __repr__(self):
        return f"PageHinkley(delta={self.delta!r}, threshold={self.threshold!r})"


class KSWIN(DriftDetector):
    """Kolmogorov-Smirnov windowing (Raab et al. 2020): drift when the newest
    stat_size values differ from stat_size values drawn from the rest of a
    window of window_size, at p-value <= alpha. `window`, River's initial
    values, is fed through update()."""

    def __init__(self, alpha=0.005, window_size=100, stat_size=30, seed=None, window=None):
        self._core = _core.Drift("kswin", {"alpha": alpha, "window_size": window_size, "stat_size": stat_size,
                                           "seed": 42 if seed is None else seed})
        self._signal = _STABLE
        self.alpha, self.window_size, self.stat_size, self.seed = alpha, window_size, stat_size, seed
        for v in window or ():
            self.update(v)
        self._signal = _STABLE

    def __repr__(self):
        return (f"KSWIN(alpha={self.alpha!r}, window_size={self.window_size!r}, stat_size={self.stat_size!r}, "
                f"seed={self.seed!r})")
