"""Detectors of a binary error stream (1 = mistake): DDM. Imported as irithyll.drift.binary."""
from .drift import DriftDetector


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


__all__ = ["DDM"]
