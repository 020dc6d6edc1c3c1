"""Feature transformers for dict samples."""
import math


class Transformer:
    def learn_one(self, x):
        pass

    def transform_one(self, x):
        raise NotImplementedError

    def __or__(self, other):
        from .compose import Pipeline
        return Pipeline(self, other)


class StandardScaler(Transformer):
    """Scales each feature to zero mean and unit variance with running
    (Welford) statistics; a feature with no spread yet maps to 0. Values that
    are not finite pass through unscaled and do not update the statistics."""

    def __init__(self):
        self.counts = {}
        self.means = {}
        self._m2 = {}

    def learn_one(self, x):
        for k, v in x.items():
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                continue
            n = self.counts.get(k, 0) + 1
            mean = self.means.get(k, 0.0)
            delta = v - mean
            mean += delta / n
            self.counts[k] = n
            self.means[k] = mean
            self._m2[k] = self._m2.get(k, 0.0) + delta * (v - mean)

    def variance(self, k):
        n = self.counts.get(k, 0)
        return self._m2[k] / n if n > 1 else 0.0

    def transform_one(self, x):
        out = {}
        for k, v in x.items():
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                out[k] = v
                continue
            var = self.variance(k)
            out[k] = (v - self.means.get(k, 0.0)) / math.sqrt(var) if var > 0 else 0.0
        return out

    def __repr__(self):
        return "StandardScaler()"
