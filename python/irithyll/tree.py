"""Single trees from the model catalogue (GradientTree*, HoeffdingAdaptiveTree*, ExtremelyFastDecisionTreeClassifier)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("tree", {}))
__all__ = sorted(_GENERATED.get("tree", {}))
