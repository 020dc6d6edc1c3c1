"""Drift detectors over the library's drift/: ADWIN, KSWIN, PageHinkley; DDM, EDDM,
HDDM_A and HDDM_W in drift.binary (also here, as older River releases had them).

    detector.update(x); if detector.drift_detected: ...

And models that act on drift, from the catalogue: DriftRetrainingClassifier
and DriftRetrainingRegressor wrap any learner, watch its prequential loss
with a detector, train a replacement from the first warning on and swap it
in at the drift (River's habit):

    >>> from irithyll import drift, tree
    >>> model = drift.DriftRetrainingClassifier(model=tree.HoeffdingTreeClassifier(),
    ...                                         drift_detector=drift.binary.DDM())

`strategy="ewc"`, `"mask"` or `"regen"` instead hand a continual-learning
guard to a model that exposes its trained weights or units (the neural
models with `continual` settings); others are refused by name.
"""
import sys

from ._drift_detectors import ADWIN, KSWIN, DriftDetector, PageHinkley  # noqa: F401
from ._learners import GENERATED as _GENERATED
from . import _drift_binary as binary  # noqa: E402
from ._drift_binary import DDM, EDDM, HDDM_A, HDDM_W  # noqa: E402

sys.modules[__name__ + ".binary"] = binary
globals().update(_GENERATED.get("drift", {}))
__all__ = sorted(["ADWIN", "KSWIN", "PageHinkley", "binary", "DDM", "EDDM", "HDDM_A", "HDDM_W"] +
                 list(_GENERATED.get("drift", {})))
