"""Baselines from the model catalogue: NoChangeClassifier, NoChangeRegressor,
PriorClassifier (majority class) and StatisticRegressor (running mean)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("dummy", {}))
__all__ = sorted(_GENERATED.get("dummy", {}))
