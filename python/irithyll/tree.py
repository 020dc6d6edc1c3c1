"""Single trees from the model catalogue (HoeffdingTree*, HoeffdingAdaptiveTree*, ExtremelyFastDecisionTreeClassifier, SGT*)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("tree", {}))
__all__ = sorted(_GENERATED.get("tree", {}))
