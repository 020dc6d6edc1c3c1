"""Forests from the model catalogue: ARFClassifier, ARFRegressor (adaptive random forest) and
AMFClassifier, AMFRegressor (aggregated Mondrian forest; see `irithyll models mondrian_forest`)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("forest", {}))
__all__ = sorted(_GENERATED.get("forest", {}))
