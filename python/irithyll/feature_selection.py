"""Online feature selection: CorrelationSelector (the C++ feature_selector)."""
from ._core_transformers import SupervisedCoreTransformer, parameters_doc


class CorrelationSelector(SupervisedCoreTransformer):
    """Keeps the features most correlated with the target and sets the others
    to 0: the C++ `feature_selector` transformer. A feature's score is
    |corr(x, y)| from exponentially weighted moments with rate `alpha`, so
    the selection follows drift; the top ceil(keep · d) features are kept
    (every feature until `warmup` samples were learned). Supervised: it
    learns with the target (a Pipeline passes y). Regression by default; with
    classes=[...] the target is a label and a feature's score sums
    |corr(x, [y == k])| over the classes k after the first.

    River's feature_selection.SelectKBest(similarity, k) is the nearest
    equivalent, and differs: it keeps a count k, not a fraction, scores with
    any similarity over the whole stream (no forgetting), and drops the other
    features from the dict, while this class keeps every feature's key and
    gives the unselected ones the value 0, so the model after it keeps one
    input width while the selection moves.

    >>> from irithyll import feature_selection
    >>> sel = feature_selection.CorrelationSelector(keep=0.5, warmup=10)
    >>> for i in range(200):
    ...     sel.learn_one({"signal": float(i % 5), "noise": float((i * 7) % 3)}, 2.0 * (i % 5))
    >>> sel.transform_one({"signal": 1.0, "noise": 1.0})
    {'signal': 1.0, 'noise': 0.0}
    """

    _kind = "feature_selector"

    def _output_keys(self, n):
        return self._features


CorrelationSelector.__doc__ += parameters_doc("feature_selector") + \
    "\n        classes = None: the labels of a classification target (None: y is a number)" + \
    "\n        seed = 42: unused (the transformer is deterministic)"
