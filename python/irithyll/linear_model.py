"""Linear models from the model catalogue: LinearRegression, LogisticRegression,
SoftmaxRegression (SGD, Adam or AdaGrad on standardised features), PAClassifier
and PARegressor (passive-aggressive), Perceptron, ALMAClassifier, RLSRegressor
(recursive least squares) and KRLSRegressor (kernel RLS)."""
from ._learners import GENERATED as _GENERATED

globals().update(_GENERATED.get("linear_model", {}))
__all__ = sorted(_GENERATED.get("linear_model", {}))
