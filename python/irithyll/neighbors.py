"""k nearest neighbours from the model catalogue: KNNClassifier, KNNRegressor
(sliding window, standardised Minkowski distance; see `irithyll models knn`)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("neighbors", {}))
__all__ = sorted(_GENERATED.get("neighbors", {}))
