"""Naive Bayes classifiers from the model catalogue: GaussianNB, MultinomialNB
(counts; negative values read as 0) and BernoulliNB (binarised features)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("naive_bayes", {}))
__all__ = sorted(_GENERATED.get("naive_bayes", {}))
