"""Forests from the model catalogue (ARFClassifier, ARFRegressor)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("forest", {}))
__all__ = sorted(_GENERATED.get("forest", {}))
