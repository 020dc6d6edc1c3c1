"""Detectors of a binary error stream (1 = mistake): DDM, EDDM, HDDM_A,
HDDM_W. Imported as irithyll.drift.binary, as River's drift.binary; each
takes River's parameter names."""
from . import _core
from ._drift_detectors import DriftDetector, _STABLE


class DDM(DriftDetector):
    """Drift detection method: warning / drift when the error rate rises by
    warning_threshold / drift_threshold standard deviations over its minimum."""

    def __init__(self, warm_start=30, warning_threshold=2.0, drift_threshold=3.0):
        super().__init__("ddm", warning_level=warning_threshold, drift_level=drift_threshold,
                         min_instances=warm_start)
        self.warm_start, self.warning_threshold, self.drift_threshold = warm_start, warning_threshold, drift_threshold

    def update(self, x):
        super().update(1.0 if x else 0.0)

    def __repr__(self):
        return (f"DDM(warm_start={self.warm_start!r}, warning_threshold={self.warning_threshold!r}, "
                f"drift_threshold={self.drift_threshold!r})")


class _Configured(DriftDetector):
    """A detector built from the library's settings by name."""

    def __init__(self, kind, **params):  # pylint: disable=super-init-not-called
        self._core = _core.Drift(kind, params)
        self._signal = _STABLE


class EDDM(_Configured):
    """Early drift detection method (Baena-Garcia et al. 2006): watches the
    distance between errors; warning when (mean + 2 sd) falls below alpha of
    its maximum, drift below beta once the newest confirm_window distances'
    mean is also confirm_z standard errors below the running mean
    (confirm_window=0: the paper's rule). No signal before warm_start errors."""

    def __init__(self, warm_start=30, alpha=0.95, beta=0.9, confirm_window=50, confirm_z=4.0):
        super().__init__("eddm", min_instances=warm_start, eddm_warning=alpha, eddm_drift=beta,
                         eddm_confirm_window=confirm_window, eddm_confirm_z=confirm_z)
        self.warm_start, self.alpha, self.beta = warm_start, alpha, beta
        self.confirm_window, self.confirm_z = confirm_window, confirm_z

    def update(self, x):
        super().update(1.0 if x else 0.0)

    def __repr__(self):
        return (f"EDDM(warm_start={self.warm_start!r}, alpha={self.alpha!r}, beta={self.beta!r}, "
                f"confirm_window={self.confirm_window!r}, confirm_z={self.confirm_z!r})")


class HDDM_A(_Configured):  # noqa: N801 (River's name)
    """Drift detection by Hoeffding's bound on moving averages (Frias-Blanco
    et al. 2015, the A-test). Values are errors (0/1) or in [0, 1]."""

    def __init__(self, drift_confidence=0.001, warning_confidence=0.005, two_sided_test=False):
        super().__init__("hddm_a", drift_confidence=drift_confidence, warning_confidence=warning_confidence,
                         two_sided=bool(two_sided_test))
        self.drift_confidence, self.warning_confidence = drift_confidence, warning_confidence
        self.two_sided_test = two_sided_test

    def update(self, x):
        super().update(float(x))

    def __repr__(self):
        return (f"HDDM_A(drift_confidence={self.drift_confidence!r}, warning_confidence={self.warning_confidence!r}, "
                f"two_sided_test={self.two_sided_test!r})")




class HDDM_W(_Configured):  # noqa: N801 (River's name)
    """Drift detection by McDiarmid's bound on exponentially weighted moving
    averages (Frias-Blanco et al. 2015, the W-test); lambda_val weighs the
    newest value. Values are errors (0/1) or in [0, 1]. The defaults are
    stricter than River's (0.001, 0.005, 0.05), at which the W-test re-fires
    on a stationary error rate near 0.5 on about a third of streams after a
    change; River's values are accepted as arguments."""

    def __init__(self, drift_confidence=1e-4, warning_confidence=5e-4, lambda_val=0.02, two_sided_test=False):
        super().__init__("hddm_w", drift_confidence=drift_confidence, warning_confidence=warning_confidence,
                         ewma_lambda=lambda_val, two_sided=bool(two_sided_test))
        self.drift_confidence, self.warning_confidence = drift_confidence, warning_confidence
        self.lambda_val, self.two_sided_test = lambda_val, two_sided_test

    def update(self, x):
        super().update(float(x))

    def __repr__(self):
        return (f"HDDM_W(drift_confidence={self.drift_confidence!r}, warning_confidence={self.warning_confidence!r}, "
                f"lambda_val={self.lambda_val!r}, two_sided_test={self.two_sided_test!r})")


__all__ = ["DDM", "EDDM", "HDDM_A", "HDDM_W"]
