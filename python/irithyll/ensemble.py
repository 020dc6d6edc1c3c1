"""Tree ensembles from the model catalogue (SGBTClassifier, SGBTRegressor)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED["ensemble"])
__all__ = sorted(_GENERATED["ensemble"])
