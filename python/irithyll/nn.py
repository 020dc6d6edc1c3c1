"""Neural streaming learners from the model catalogue (one class per row and task)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED["nn"])
__all__ = sorted(_GENERATED["nn"])
